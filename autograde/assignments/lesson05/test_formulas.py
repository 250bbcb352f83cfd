def _check_formulas(memory, close, expected_memory, cases, **_):
    """Stages 1/2/3 without FP32 accumulation equal the lesson's formulas on random and 7B inputs."""
    for num_params, dp, k in cases(seed=5, count=300):
        for stage in (1, 2, 3):
            got = memory(num_params, dp, stage, k=k, fp32_grad_accum=False)
            close(got, expected_memory(num_params, dp, stage, k, False),
                  f"zero_memory_per_gpu({num_params}, dp={dp}, stage={stage}, k={k})")


_hidden_test(_check_formulas)
