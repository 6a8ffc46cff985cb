# Balcão: the two commands that matter are `make run` and `make test` (see README.md).
SHELL := /bin/bash
CARGO ?= cargo
export DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/balcao
export NATS_URL ?= nats://127.0.0.1:4222

.PHONY: run test services test-deps lint fmt bench lighthouse build webapp-deps webapp-build browser-deps e2e

## Starts PostgreSQL and NATS when they are down, builds the dashboard, then the whole service in one
## process (http://localhost:8080; e-mails go to .data/outbox and their links to the log).
run: services webapp-build
	BALCAO_SANDBOX_PAYMENTS=$${BALCAO_SANDBOX_PAYMENTS:-true} $(CARGO) run --release -p gateway --bin balcao -- all

## Runs the whole suite: Rust unit, integration and end-to-end tests over real PostgreSQL and NATS,
## then the dashboard's tests (Vitest), then the browser tests (Debian's Chromium, playwright-core)
## against the real binary.
test: services test-deps webapp-deps
	$(CARGO) test --workspace --lib --bins --tests --examples --no-fail-fast
	$(CARGO) test --workspace --doc
	cd webapp && npm test
	$(MAKE) e2e

## Browser tests: sign-up to recovery, and an owner inviting an operator, in Debian's Chromium.
e2e: services test-deps webapp-build browser-deps
	$(CARGO) build -p gateway --bin balcao
	$(CARGO) build -p tests --bin bank-simulator
	cd tests/browser && npm run e2e

## Formatting and lints, as CI runs them, and a check that no tracked file reads outside the clone.
lint: webapp-deps
	./scripts/check-self-contained.sh
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps
	cd webapp && npm run lint && npm run typecheck && npm run format:check

fmt:
	$(CARGO) fmt --all

## Benchmarks (figures go to BENCHMARKS.md by hand, with the machine and the command).
bench: services
	$(CARGO) bench -p domain
	$(CARGO) bench -p gateway --bench signs
	$(CARGO) bench -p gateway --bench hot_pages
	$(CARGO) bench -p gateway --bench creations
	$(CARGO) bench -p gateway --bench relay_cpu
	$(CARGO) bench -p commands --bench append
	$(CARGO) bench -p projections
	$(CARGO) bench -p tests --bench read_model_lag
	$(CARGO) bench -p tests --bench api_pix_ingest
	$(CARGO) bench -p tests --bench qrcode_batch
	$(CARGO) bench -p tests --bench sse_fanout
	$(CARGO) bench -p tests --bench payments_scale
	$(CARGO) bench -p tests --bench transactions_scale
	$(CARGO) bench -p tests --bench bank_catch_up

## Lighthouse on /, one article and /criar-placa-pix (release build, Debian's Chromium).
lighthouse:
	./scripts/lighthouse.sh

build:
	$(CARGO) build --release -p gateway --bin balcao

services:
	@./scripts/services.sh

## Debian's Chromium and poppler's pdftoppm, installed when missing (the tests drive both).
test-deps:
	@./scripts/test-deps.sh

## Builds the dashboard into webapp/dist, which the gateway serves at /painel.
webapp-build: webapp-deps
	cd webapp && npm run build

## The browser tests' packages (playwright-core; no browser is downloaded: Debian's Chromium is used).
browser-deps: tests/browser/node_modules/.package-lock.json

tests/browser/node_modules/.package-lock.json: tests/browser/package-lock.json
	cd tests/browser && npm install --no-audit --no-fund
	touch $@

## Installs the dashboard's npm packages when the lock file changed (or on a fresh clone).
webapp-deps: webapp/node_modules/.package-lock.json

# `npm install` rather than `npm ci`: the registry this project reaches omits some optional
# platform packages (@unrs/resolver-binding-*) from the lock file, which `npm ci` then refuses;
# `npm install` installs exactly the locked versions and leaves the lock file as it is.
webapp/node_modules/.package-lock.json: webapp/package-lock.json
	cd webapp && npm install --no-audit --no-fund
	touch $@
