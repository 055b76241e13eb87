-- record: task
-- Generated from schemas/task.schema.json by `python -m cotbuilder.store.generate`: edit the schema.
-- One row per task: a kernel to write, with its cases and reference. A kernel to write: statement, cases (tensors,
-- dtypes, shapes, attributes), a reference run in the sandbox, the tolerance rule, the SoC and the layout the answer
-- must have. Format of a task.toml: docs/tasks.md.
CREATE TABLE IF NOT EXISTS tasks (
    task_id         VARCHAR PRIMARY KEY,   -- sha256 of everything that decides a verdict (statement, layout, cases, reference, tolerance, given files, launch): the same task loaded twice is one row, an edited one a new row
    name            VARCHAR NOT NULL,      -- short name, unique within its source (the folder name of a task.toml)
    source          VARCHAR NOT NULL,      -- where the task comes from: `task.toml` (a folder written by hand) or a benchmark loader
    origin          VARCHAR NOT NULL,      -- the file it was loaded from, relative to the folder given to the loader
    statement_en    VARCHAR NOT NULL,      -- what to write, in English
    statement_zh    VARCHAR,               -- the same in Chinese, when given
    layout          VARCHAR NOT NULL,      -- what the answer is: `kernel_launch` (a kernel source with the entry; cotbuilder launches it), `kernel_only` (op_kernel/ of an op project whose op_host/ the task gives) or `op_project` (op_host/ + op_kernel/)
    soc             VARCHAR NOT NULL,      -- target SoC (ascend910b, ascend310p)
    category        VARCHAR,               -- elementwise, activation, reduction, normalization, matmul, ...
    entry           VARCHAR,               -- kernel_launch: the `extern "C" __global__ __aicore__` function the answer defines
    op              VARCHAR,               -- kernel_only / op_project: the op type (OpDef name) the answer implements
    kernel_path     VARCHAR,               -- where the answer's kernel file goes when it is given as one string
    block_dim       INTEGER,               -- kernel_launch: the block dim cotbuilder launches with
    launch_args     JSON,                  -- kernel_launch: the entry's GM arguments in order (tensor names, `workspace`, `tiling`); null = inputs, outputs, workspace, tiling
    workspace_bytes INTEGER,               -- kernel_launch: bytes of the GM workspace passed as `workspace`
    cases           JSON NOT NULL,         -- the test cases: `[{name, inputs: [tensor], outputs: [tensor], attrs: {}, seeds: [int], row?}]`; a tensor is `{name, shape, dtype, low?, high?}` (inputs drawn uniform in [low, high) per seed)
    reference       JSON NOT NULL,         -- `{kind: numpy | torch | python | benchmark | multikernelbench, code}`: an expression over the inputs and attrs (numpy as `np`; torch tensors for `torch`), Python defining `reference(*inputs)`, or `benchmark`: the benchmark's own validation in given_files (`validation/module.py` reference, test_cases.csv rows, pybind binding; code names module.py) run by verify's benchmark harness, or `multikernelbench`: a MultiKernelBench reference model (code names its file in given_files), which no harness runs yet (answers are scored unsupported); always run in the sandbox
    tolerance       JSON,                  -- `{atol, rtol}` for every output; null = the dtype's default (docs/statuses.md, verify/data/tolerances.toml)
    given_files     JSON,                  -- files the task gives and the answer must fit (kernel_only: the op project without op_kernel/)
    answer_files    JSON,                  -- a known right answer, when the task has one (the demo tasks: the demo's own kernel); never shown to a model by cotbuilder
    tags            JSON,                  -- free labels (level, family)
    created_at      TIMESTAMP NOT NULL     -- when it was stored
);
