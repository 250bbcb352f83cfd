# Shared by every hidden test: everything lives inside _hidden_test so student code cannot rebind it,
# and nothing here reads a builtin, a module or a global except the two functions under test.
def _hidden_test(check):
    _int = (0).__class__
    _float = (0.0).__class__
    _bool = (True).__class__
    _type = _int.__class__
    _mro_of = _type.__dict__["__mro__"].__get__

    def plain_number(value, what):
        """The value as a plain int/float; fails on bool, str, None, NaN, arrays and look-alike objects."""
        kind = _type(value)
        assert kind is not _bool, f"{what}: returned a bool, expected a number of bytes/elements"
        mro = _mro_of(kind)
        if _float in mro:
            number = _float.__add__(value, 0.0)
        elif _int in mro:
            number = _int.__add__(value, 0)
        else:
            assert False, f"{what}: returned {kind.__name__}, expected a plain int or float"
        assert number == number, f"{what}: returned NaN"
        return number

    def close(got, expected, what):
        """Relative agreement to about 1e-9 on plain numbers."""
        number = plain_number(got, what)
        gap = number - expected
        gap = -gap if gap < 0 else gap
        scale = expected if expected > 0 else -expected
        assert gap <= 1e-9 * scale + 1e-9, f"{what}: expected {expected!r}, got {number!r}"

    def expected_memory(num_params, dp, stage, k, fp32_grad_accum):
        """The lesson's formula, written independently of the student's code."""
        params, grads, optimizer = 2 * num_params, 2 * num_params, k * num_params
        extra = (4 * num_params if stage <= 1 else 4 * num_params / dp) if fp32_grad_accum else 0.0
        if stage == 0:
            return params + grads + optimizer + extra
        if stage == 1:
            return params + grads + optimizer / dp + extra
        if stage == 2:
            return params + (grads + optimizer) / dp + extra
        return (params + grads + optimizer) / dp + extra

    def cases(seed, count):
        """Seeded (num_params, dp, k) over wide ranges, plus the lesson's 7B cases."""
        fixed = ((7_000_000_000, 1, 12), (7_000_000_000, 8, 12), (7_000_000_000, 64, 12), (1_000_000, 1, 12))
        for case in fixed:
            yield case
        state = seed
        produced = 0
        while produced < count:
            state = (state * 6364136223846793005 + 1442695040888963407) % 18446744073709551616
            digits = 1 + (state >> 11) % 12
            num_params = 1 + (state >> 17) % (10 ** digits)
            dp = 1 + (state >> 40) % (4096 if produced % 2 else 97)
            k = (4, 8, 12, 16)[(state >> 60) % 4]
            produced += 1
            yield num_params, dp, k

    check(memory=zero_memory_per_gpu, communication=zero_communication_volume,
          plain_number=plain_number, close=close, expected_memory=expected_memory, cases=cases)
