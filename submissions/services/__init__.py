"""What happens to a submission, one module a job: intake (validate, rate-limit and
create), queueing (fair order, place in the queue, live progress), lifecycle (claim,
grade, close), housekeeping (the sweep, stale sandboxes), gpu_workers (the GPU
worker's heartbeat) and listing. Callers import from the module that owns a function."""
