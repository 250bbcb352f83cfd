# 自查：运行本单元格检查你的实现（与原题 __main__ 中的交叉验证相同）。
make_table()
P = 1_000_000
assert zero_memory_per_gpu(P, 1, 1) == zero_memory_per_gpu(P, 1, 2) == zero_memory_per_gpu(P, 1, 3)
print("dp=1 时三档相等 ✓")
