"""`cotbuilder synthesize`: rejection sampling. A teacher answers tasks; answers cotbuilder verifies become units of
layout `synthesized`; failing ones go to repair rounds, and the (broken code, diagnostic, fixed code, reasoning)
chains whose fix really passes become error-correction samples. Benchmark tasks are refused (docs/verbs.md)."""
