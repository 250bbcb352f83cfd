# Lesson 5 course package. `make demo` and `make test` work on a fresh clone: they create .venv first.
VENV    := .venv
PYTHON  := $(VENV)/bin/python
STAMP   := $(VENV)/.installed
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)

.PHONY: venv deepspeed build demo report test site site-answer system-deps-demo system-deps-test

# Debian packages outside pip: the sandbox for grading, a browser and a database server for the tests. Installed when
# missing and we are root (CI, a fresh machine); otherwise one line says what to install (the tests needing it skip).
define debian_packages
	@missing=""; for package in $(1); do dpkg -s $$package >/dev/null 2>&1 || missing="$$missing $$package"; done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing Debian packages:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	else echo "missing Debian packages:$$missing (sudo apt-get install$$missing)"; fi
endef

system-deps-demo:
	$(call debian_packages,bubblewrap)

system-deps-test:
	$(call debian_packages,bubblewrap chromium postgresql)

$(STAMP): pyproject.toml jupyter-config/jupyter_server_config.d/autograde.json
	test -x $(PYTHON) || python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -e '.[test,lab,cluster]'
	# an editable install leaves out data files: enable the server extension (safe grading pages) by hand
	install -D -m 644 jupyter-config/jupyter_server_config.d/autograde.json $(VENV)/etc/jupyter/jupyter_server_config.d/autograde.json
	touch $@

venv: $(STAMP)

# DeepSpeed's memory estimators (python -m zerolab deepspeed, tests/test_lab_deepspeed.py): built against the venv's
# torch, without CUDA ops; where it cannot be installed one line says so and those tests skip
DS_STAMP := $(VENV)/.deepspeed-installed
$(DS_STAMP): $(STAMP)
	DS_BUILD_OPS=0 $(PYTHON) -m pip install -qq --no-build-isolation -e '.[deepspeed]' && touch $@ \
	  || echo "deepspeed could not be installed: python -m zerolab deepspeed and its tests are unavailable"

deepspeed: $(DS_STAMP)

# lessons/lesson05.qmd -> source/lesson05/lesson05.ipynb -> release/lesson05/lesson05.ipynb
# (bytecode for the package too: where PYTHONDONTWRITEBYTECODE is set, nbgrader autograde and each grading worker
# would otherwise compile it on every run)
build: $(STAMP)
	$(PYTHON) -m autograde build lesson05
	nbgrader generate_assignment lesson05 --force
	$(PYTHON) -m compileall -q autograde >/dev/null

# autograde examples/submissions from the repo root, print per-test points, then the final-grade report
demo: build system-deps-demo
	$(PYTHON) -m autograde demo lesson05
	$(PYTHON) -m autograde report lesson05

report: $(STAMP)
	$(PYTHON) -m autograde report lesson05

# one pytest process per core: most tests wait on servers, browsers and sandboxes (tests/conftest.py keeps each file,
# and the files of one shared fixture, on one process)
test: $(STAMP) $(DS_STAMP) system-deps-test
	$(PYTHON) -m pytest -n auto

# the student site (_site/) and the answer site (_site-answer/); needs Quarto on PATH
site: $(STAMP)
	QUARTO_PYTHON=$(CURDIR)/$(PYTHON) quarto render

site-answer: $(STAMP)
	QUARTO_PYTHON=$(CURDIR)/$(PYTHON) quarto render --profile answer
