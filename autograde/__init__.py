"""Grading toolkit for lesson 5 (ZeRO and FSDP): build, checks, vetoes, reports."""
