// Every tests/js/*.test.mjs in one Node process (tests/test_node_js.py): node --test starts a process per file,
// which cost the fast lane more than the tests themselves.
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
for (const name of readdirSync(here).filter((n) => n.endsWith(".test.mjs")).sort()) {
  await import(pathToFileURL(join(here, name)).href);
}
