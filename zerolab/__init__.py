"""Lab for lesson 5: run DDP and ZeRO-1/2/3 for real and set measured memory and traffic beside the formulas."""
