import torch


def get_inputs(param, device=None):
    """A list of tensors and one scalar per tensor (float32 for float tensors, int64 for int32 ones, the dtypes
    the op's scalar list takes)."""
    shapes = eval(param.get('input_shape', '[[1]]'))
    scale = eval(param.get('scale', '[1.0]'))
    dtype = getattr(torch, param.get('dtype', 'float16'))
    if dtype == torch.int32:
        xs = [torch.randint(-1000, 1000, s, device=device, dtype=dtype) for s in shapes]
        scalars = torch.tensor(scale, dtype=torch.int64)
    else:
        xs = [(torch.randn(s, device=device, dtype=torch.float32) * 3.0).to(dtype) for s in shapes]
        scalars = torch.tensor(scale, dtype=torch.float32)
    return xs, scalars


def get_init_inputs(param, device=None):
    return []
