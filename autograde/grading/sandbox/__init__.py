"""The sandbox: bubblewrap around a warm zygote (kernel.py) that runs each submission in fresh namespaces."""
