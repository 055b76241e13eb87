import torch
import torch.nn as nn
import kernel_gen_ops


class Model(nn.Module):
    """Reference computation for GreaterEqual."""

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return (a >= b).to(torch.int8)


class ModelNew(nn.Module):
    def forward(self, a, b):
        return kernel_gen_ops.greater_equal(a, b)
