import torch
import torch.nn as nn
import torch_npu
from torch_npu.contrib import transfer_to_npu


class Model(nn.Module):
    """The reference: torch's foreach multiply, one scalar per tensor."""

    def __init__(self):
        super().__init__()

    def forward(self, x, scalars):
        return list(torch._foreach_mul(x, scalars.tolist()))


class ModelNew(nn.Module):
    """The candidate: the custom op through its binding."""

    def __init__(self):
        super().__init__()

    def forward(self, x, scalars):
        import kernel_gen_ops
        return kernel_gen_ops.foreach_mul_scalar_list_custom(x, scalars)
