# Balcão: the two commands that matter are `make run` and `make test` (see README.md).
SHELL := /bin/bash
CARGO ?= cargo
export DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/balcao
export NATS_URL ?= nats://127.0.0.1:4222

.PHONY: run test services lint fmt bench build clean-data

## Starts PostgreSQL and NATS when they are down, then the whole service in one process.
run: services
	$(CARGO) run --release -p gateway --bin balcao -- all

## Runs the whole suite: Rust unit, integration and end-to-end tests over real PostgreSQL and NATS.
test: services
	$(CARGO) test --workspace --all-targets --no-fail-fast
	$(CARGO) test --workspace --doc

## Formatting and lints, as CI runs them.
lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

fmt:
	$(CARGO) fmt --all

## Benchmarks (figures go to BENCHMARKS.md by hand, with the machine and the command).
bench: services
	$(CARGO) bench -p domain
	$(CARGO) bench -p commands --bench append
	$(CARGO) bench -p projections

build:
	$(CARGO) build --release -p gateway --bin balcao

services:
	@./scripts/services.sh
