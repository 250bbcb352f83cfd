def _check_communication(communication, close, cases, **_):
    """ZeRO-1/2 move 2Ψ elements per step and ZeRO-3 moves 3Ψ."""
    for num_params, _dp, _k in cases(seed=11, count=300):
        for stage, multiple in ((1, 2), (2, 2), (3, 3)):
            close(communication(num_params, stage), multiple * num_params,
                  f"zero_communication_volume({num_params}, stage={stage})")


_hidden_test(_check_communication)
