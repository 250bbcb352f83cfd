def _check_dp1(memory, plain_number, close, expected_memory, cases, **_):
    """At dp=1 nothing is sharded: stages 0-3 agree, with and without FP32 accumulation."""
    for num_params, _dp, k in cases(seed=13, count=200):
        for fp32_grad_accum in (False, True):
            what = f"dp=1, num_params={num_params}, k={k}, fp32_grad_accum={fp32_grad_accum}"
            baseline = plain_number(memory(num_params, 1, 0, k=k, fp32_grad_accum=fp32_grad_accum), what)
            if not fp32_grad_accum:
                close(baseline, expected_memory(num_params, 1, 0, k, False), "stage 0 at " + what)
            for stage in (1, 2, 3):
                close(memory(num_params, 1, stage, k=k, fp32_grad_accum=fp32_grad_accum), baseline,
                      f"stage {stage} vs stage 0 at {what}")


_hidden_test(_check_dp1)
