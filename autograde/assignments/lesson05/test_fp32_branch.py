def _check_fp32_branch(memory, plain_number, close, cases, **_):
    """Turning on FP32 accumulation adds exactly 4Ψ at stage 1 and 4Ψ/dp at stages 2 and 3."""
    for num_params, dp, k in cases(seed=7, count=300):
        for stage in (1, 2, 3):
            what = f"fp32_grad_accum extra at stage {stage} (num_params={num_params}, dp={dp}, k={k})"
            with_fp32 = plain_number(memory(num_params, dp, stage, k=k, fp32_grad_accum=True), what)
            without = plain_number(memory(num_params, dp, stage, k=k, fp32_grad_accum=False), what)
            expected_extra = 4 * num_params if stage == 1 else 4 * num_params / dp
            close(with_fp32 - without, expected_extra, what)


_hidden_test(_check_fp32_branch)
