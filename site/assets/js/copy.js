// Copy buttons next to quirk lines: copy the exact text of the element named by data-copy.
export function wireCopyButton(button, source) {
  const label = button.textContent; // "Copy", or what the button says it copies
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Select and copy';
    }
    setTimeout(() => { button.textContent = label; }, 2000);
  });
}

export function initCopyButtons(root) {
  for (const button of root.querySelectorAll('button[data-copy]')) {
    const source = root.getElementById(button.dataset.copy);
    if (!source || !navigator.clipboard) continue;
    wireCopyButton(button, source);
  }
}
