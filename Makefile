# Lesson 5 course package. `make demo` and `make test` work on a fresh clone: they create .venv first.
VENV    := .venv
PYTHON  := $(VENV)/bin/python
STAMP   := $(VENV)/.installed
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)

.PHONY: venv build demo report test site site-answer

$(STAMP): pyproject.toml
	test -x $(PYTHON) || python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -e '.[test,lab]'
	touch $@

venv: $(STAMP)

# lessons/lesson05.qmd -> source/lesson05/lesson05.ipynb -> release/lesson05/lesson05.ipynb
build: $(STAMP)
	$(PYTHON) -m autograde build lesson05
	nbgrader generate_assignment lesson05 --force

# autograde examples/submissions from the repo root, print per-test points, then the final-grade report
demo: build
	$(PYTHON) -m autograde demo lesson05
	$(PYTHON) -m autograde report lesson05

report: $(STAMP)
	$(PYTHON) -m autograde report lesson05

test: $(STAMP)
	$(PYTHON) -m pytest

# the student site (_site/) and the answer site (_site-answer/); needs Quarto on PATH
site: $(STAMP)
	QUARTO_PYTHON=$(CURDIR)/$(PYTHON) quarto render

site-answer: $(STAMP)
	QUARTO_PYTHON=$(CURDIR)/$(PYTHON) quarto render --profile answer
