"""The grading benchmark's tables for docs/benchmarks.md, written from its saved
results (bench/results/grading.json): `grading_bench.py --markdown`."""


def markdown(data):
    """The docs tables, from saved results."""
    parts = data.get("parts", {})
    out = []

    def x(value, digits=3):
        return "-" if value is None else f"{value:.{digits}f}"

    def pct(value):
        return "-" if value is None else f"{100 * value:.1f}%"

    def ci(pair, digits=3):
        return "-" if not pair else f"[{x(pair[0], digits)}, {x(pair[1], digits)}]"

    for key in per_host_state(parts, "coverage"):
        out += coverage_table(key, parts[key], x, pct)
    if "pressure" in parts:
        out += pressure_table(parts["pressure"], x)
    if "repeatability" in parts:
        part = parts["repeatability"]
        out += [
            f"### Repeatability ({part['measured_at'][:10]}, load average {part['load_average_before'][0]} before)",
            "",
            "| exercise | submission | gradings | median speedup | min | max | spread (max-min)/median | CV | median harness CI | gradings whose CI holds the median | target spread <= 10% |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |",
        ]
        for case in part["cases"]:
            holds = "-" if case.get("ci_holds_median") is None else f"{case['ci_holds_median']}/{case['gradings']}"
            out.append(
                f"| {case['exercise']} | {case['submission']} | {case['gradings']} | {x(case['median'], 2)}x | {x(case['min'], 2)} | "
                f"{x(case['max'], 2)} | {pct(case['spread'])} | {pct(case['cv'])} | {ci(case['median_of_harness_ci'], 2)} | "
                f"{holds} | {'pass' if case['passes'] else 'FAIL'} |"
            )
        out += ["", "Per benchmark size (median speedup, spread):", ""]
        for case in part["cases"]:
            cells = ", ".join(
                f"{int(size):,}: {x(v['median'], 2)}x ({pct(v['spread'])})" for size, v in case["per_size"].items()
            )
            out.append(f"- {case['exercise']}: {cells}")
        out += [
            "",
            "What a grading cost (medians): wall time, the harness's own work beyond the measured calls, pairs at the headline size per grading:",
            "",
        ]
        for case in part["cases"]:
            pairs = ", ".join(str(count) for count in case.get("headline_pairs") or [])
            out.append(
                f"- {case['exercise']}: {x(case['median_grade_s'], 1)} s, harness work {x(case.get('median_harness_work_s'), 2)} s, pairs {pairs}"
            )
        steadiness = part.get("host_steadiness")
        if steadiness:
            out += [
                "",
                "The machine's own steadiness (`host_speed_probe`: slowest against fastest decile of 100 ms slices, "
                "share of slices more than 25% slower than the fast decile):",
                "",
            ]
            for when in ("before", "after"):
                probe = steadiness[when]
                cells = "; ".join(
                    f"{name}-bound {x(probe[name]['slow_over_fast'], 2)}x slower at worst, "
                    f"{pct(probe[name]['share_25pct_slower'])} of slices slowed"
                    for name in ("python", "memory")
                )
                out.append(f"- {when} the gradings: {cells}")
            if "memory_handed_back_mib" in steadiness:
                out.append(
                    f"- free page reporting: the guest handed {steadiness['memory_handed_back_mib']:,} MiB back to the hypervisor "
                    f"during the gradings (freed memory held {steadiness['page_reporting_min_free_ms']} ms first; "
                    "scripts/tune_grading_host.sh)"
                )
        out.append("")
    for key in per_host_state(parts, "headline"):
        part = parts[key]
        plain, hotpath = part["plain"], part["hotpath"]
        out += [
            f"### The headline against a plain measurement, {state_of(key)} host ({part['measured_at'][:10]}, "
            f"load average {part['load_average_before'][0]} before, other work: {part.get('other_work', '-')})",
            "",
            f"{part['exercise']} / {part['submission']} at {part['size']:,} elements, rounds interleaved: the plain method in a fresh "
            f"process pinned to one CPU with NumPy's defaults (a warm-up call, then the mean of {part['plain_trials']} calls per side), "
            "and a full Hotpath grading.",
            "",
            "| method | rounds | median speedup | spread (max-min)/median | every round |",
            "| --- | ---: | ---: | ---: | --- |",
            f"| plain (warm-up, mean over trials, pinned) | {len(plain['speedups'])} | {x(plain['median'], 2)}x | {pct(plain['spread'])} | "
            f"{', '.join(x(value, 1) for value in plain['speedups'])} |",
            f"| Hotpath grading (harness, sandbox) | {len(hotpath['speedups'])} | {x(hotpath['median'], 2)}x | {pct(hotpath['spread'])} | "
            f"{', '.join(x(value, 1) for value in hotpath['speedups'])} |",
            "",
            f"Hotpath's median is {pct(part['agreement'])} from the plain one (target within ±{pct(part['target_agreement'])}): "
            f"{'pass' if part['agreement'] is not None and abs(part['agreement']) <= part['target_agreement'] else 'FAIL'}. Each grading took {x(hotpath['median_grade_s'], 1)} s (median), "
            f"{x(hotpath['median_measured_calls_s'], 1)} s of it in measured calls and {x(hotpath['median_harness_work_s'], 2)} s of the "
            "harness's own work beyond them (sandbox wall time less every measured call); pairs at the headline size per grading: "
            f"{', '.join(str(entry['headline_pairs']) for entry in hotpath['gradings'])}.",
            "",
            "Spread targets: "
            + (
                "; ".join(f"{name}: {'pass' if met else 'FAIL'}" for name, met in part.get("spread_checks", {}).items())
                or "-"
            )
            + ". Host settings (`scripts/tune_grading_host.sh --check`): "
            + "; ".join(part.get("host", {}).get("tuning", [])),
            "",
        ]
        out += sources_table(hotpath.get("spread_sources"))
    if "calibration" in parts:
        part = parts["calibration"]
        out += [
            f"### Calibration ({part['measured_at'][:10]}, load average {part['load_average_before'][0]} before)",
            "",
            "| exercise | submission | expected | gradings | median | 95% CI of the median (bootstrap over gradings) | min | max | median harness CI | gradings within ±0.05 | result |",
            "| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | --- | ---: | --- |",
        ]
        for case in part["cases"]:
            out.append(
                f"| {case['exercise']} | {case['submission']} | {x(case['expected'], 2)} | {case['gradings']} | {x(case['median'])} | "
                f"{ci(case['interval_of_median'])} | {x(case['min'])} | {x(case['max'])} | {ci(case['median_of_harness_ci'])} | "
                f"{case['within_tolerance']}/{case['gradings']} | {'pass' if case['passes'] else 'FAIL'} |"
            )
        out += ["", "Per benchmark size (median speedup):", ""]
        for case in part["cases"]:
            cells = ", ".join(f"{int(size):,}: {x(v['median'])}" for size, v in case["per_size"].items())
            out.append(f"- {case['exercise']} / {case['submission']}: {cells}")
        out.append("")
    if "latency" in parts:
        part = parts["latency"]
        startup = part["sandbox_startup_s"]
        out += [
            f"### Latency and overhead ({part['measured_at'][:10]}, load average {part['load_average_before'][0]} before)",
            "",
            f"Sandbox fixed costs (median of runs, real job limits): bwrap running `true` {x(startup['bwrap_true'])} s; "
            f"`python3 -c pass` {x(startup['python'])} s; `python3 -c 'import numpy'` {x(startup['python_numpy'])} s "
            f"(the same outside the sandbox: {x(startup['host_python_numpy'])} s).",
            "",
            "| exercise (mode) | gradings | end-to-end | sandbox wall | measured calls (benchmark) | overhead beyond sandbox | overhead beyond benchmark | pipeline <= 0.300 s | strict: beyond timed calls <= 0.300 s |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
        ]
        target = part["target_overhead_s"]
        for case in part["cases"]:
            out.append(
                f"| {case['exercise']} ({case['mode']}) | {case['gradings']} | {x(case['end_to_end_s'])} s | {x(case['sandbox_wall_s'])} s | "
                f"{x(case['benchmark_s'])} s | {x(case['overhead_beyond_sandbox_s'])} s | {x(case['overhead_beyond_benchmark_s'])} s | "
                f"{'pass' if case['overhead_beyond_sandbox_s'] <= target else 'FAIL'} | "
                f"{'pass' if case['overhead_beyond_benchmark_s'] <= target else 'FAIL'} |"
            )
        out += [
            "",
            "Where the time beyond the measured calls goes (medians, seconds):",
            "",
            "| step | " + " | ".join(f"{c['exercise']} ({c['mode']})" for c in part["cases"]) + " |",
            "| --- | " + " | ".join("---:" for _ in part["cases"]) + " |",
        ]
        for step in part["cases"][0]["breakdown_s"]:
            out.append(f"| {step} | " + " | ".join(x(c["breakdown_s"].get(step)) for c in part["cases"]) + " |")
        profiled = [c for c in part["cases"] if c.get("harness_profile")]
        if profiled:
            out += [
                "",
                "Inside the sandbox, one extra grading per row with the harness under cProfile (cumulative seconds; "
                "the profiler itself adds a little):",
                "",
                "| harness step | " + " | ".join(f"{c['exercise']} ({c['mode']})" for c in profiled) + " |",
                "| --- | " + " | ".join("---:" for _ in profiled) + " |",
            ]
            rows = [
                ("sandbox wall", "sandbox_wall_s"),
                ("harness main.py, total", "harness_total_s"),
                ("measured calls (from the report)", "benchmark_s"),
                ("calls incl. arm/freeze handshakes", "measured_calls_with_handshakes_s"),
            ]
            for label, key in rows:
                out.append(f"| {label} | " + " | ".join(x(c["harness_profile"].get(key)) for c in profiled) + " |")
            for step in profiled[0]["harness_profile"]["steps_s"]:
                out.append(
                    f"| {step} | " + " | ".join(x(c["harness_profile"]["steps_s"].get(step)) for c in profiled) + " |"
                )
        out.append("")
    if "throughput" in parts:
        part = parts["throughput"]
        out += [
            f"### Throughput ({part['measured_at'][:10]}, load average {part['load_average_before'][0]} before)",
            "",
            "| workers | submissions | graded | lost | right verdicts | claimed twice | drain time | submissions/minute |",
            "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for r in part["rounds"]:
            out.append(
                f"| {r['workers']} | {r['submissions']} | {r['graded']} | {r['lost']} | {r['right_verdicts']} | {r['claimed_more_than_once']} | "
                f"{x(r['drain_s'], 1)} s | {x(r['per_minute'], 1)} |"
            )
        out += ["", f"2 workers vs 1: {x(part['scaling_2_vs_1'], 2)}x.", ""]
    if "shmem" in parts and "modes" in parts["shmem"]:
        part = parts["shmem"]
        out += [
            f"### Huge pages for the sandbox's shared memory ({part['measured_at'][:10]}, load average {part['load_average_before'][0]} before)",
            "",
            "A 128 MB memfd (medians of 9) and full gradings of the model solutions, the kernel's shmem huge pages mode "
            f"switched between rounds (found at `{part['mode_found']}`, restored after).",
            "",
            "| shmem mode | memfd: allocate | fill | map | free | exercise | gradings | median wall | harness work | median speedup |",
            "| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |",
        ]
        for mode, result in part["modes"].items():
            memfd = result["memfd_128mb"]
            cells = f"{memfd['allocate_ms']:.1f} ms | {memfd['fill_ms']:.1f} ms | {memfd['map_ms']:.1f} ms | {memfd['free_ms']:.1f} ms"
            for slug, grading in result["gradings"].items():
                out.append(
                    f"| `{mode}` | {cells} | {slug} | {grading['gradings']} | {x(grading['median_grade_s'], 1)} s | "
                    f"{x(grading['median_harness_work_s'], 2)} s | {x(grading['median_speedup'], 2)}x |"
                )
        out.append("")
    return "\n".join(out)


def per_host_state(parts, part):
    """The saved results of `part`, one per host state (and an older unlabelled one)."""
    return sorted(key for key in parts if key == part or key.startswith(f"{part}:"))


def state_of(key):
    return key.partition(":")[2] or "unlabelled"


def coverage_table(key, part, x, pct):
    """Rows for the coverage part: the harness's intervals against pairs-only ones on the same calls."""
    host = part["host"]
    return [
        f"### Coverage, {state_of(key)} host ({part['measured_at'][:10]}, load average {host['load_before'][0]} before, "
        f"{host['load_after'][0]} after; other work: {part.get('other_work', '-')}; "
        f"inputs in huge pages: {host['inputs_in_huge_pages']})",
        "",
        "| exercise | gradings | median speedup | spread (max-min)/median | intervals holding the median: the harness's (runs, then pairs, and the host's term) | runs, then pairs only (same calls) | pairs only | median width / speedup: harness | runs, then pairs | pairs only | median grading time |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        f"| {part['exercise']} ({part['submission']}) | {part['gradings']} | {x(part['median'], 1)}x | {pct(part['spread'])} | "
        f"{part['holds_median']}/{part['gradings']} | {held_or_dash(part, 'bootstrap_only')} | "
        f"{part['pairs_only_holds_median']}/{part['gradings']} | {pct(part['median_relative_width'])} | "
        f"{pct(part['bootstrap_only_median_relative_width']) if 'bootstrap_only_median_relative_width' in part else '-'} | "
        f"{pct(part['pairs_only_median_relative_width'])} | {x(part['median_grade_s'], 1)} s |",
        "",
        "Host settings (`scripts/tune_grading_host.sh --check`): " + "; ".join(host["tuning"]),
        "",
    ] + sources_table(part.get("spread_sources"))


def held_or_dash(part, kind):
    """ "held/gradings" for an interval kind a coverage result has, "-" for one
    recorded before that kind was (harness 1.17 and earlier: the harness's own)."""
    key = f"{kind}_holds_median"
    return f"{part[key]}/{part['gradings']}" if key in part else "-"


def sources_table(sources):
    """Rows for where the spread between gradings comes from (bench/spread_sources.py):
    each variance component as a relative standard deviation, and the predicted
    standard deviation of a grading's figure for other splits of its pairs into runs."""
    if not sources:
        return []
    components = sources["components"]
    rows = [
        f"Where the spread comes from ({sources['gradings']} gradings, {sources['pairs_per_grading']} pairs in "
        f"{sources['runs_per_grading']} runs each; standard deviation of the log, about the relative one):",
        "",
        "| series | pair to pair in a run | process to process (between runs) | grading to grading (beyond its runs) |",
        "| --- | ---: | ---: | ---: |",
    ]
    for name, label in (
        ("speedup", "pair speedup"),
        ("reference", "reference time"),
        ("submission", "submission time"),
    ):
        parts = components[name]
        cells = " | ".join(f"{parts[key] ** 0.5:.1%}" for key in ("within_run", "between_runs", "between_gradings"))
        rows.append(f"| {label} | {cells} |")
    predicted = "; ".join(f"{design}: {sd:.1%}" for design, sd in sources["predicted_sd"].items())
    return rows + ["", f"Predicted standard deviation of a grading's figure by split of its pairs: {predicted}.", ""]


def pressure_table(part, x):
    """Rows for the pressure part: each answer's figures, and how many attack figures held."""
    host = part["host"]
    rows = [
        f"### Memory pressure from the submission ({part['measured_at'][:10]}, {host['state']} host, load average "
        f"{host['load_before'][0]} before, {host['load_after'][0]} after; other work: {part.get('other_work', '-')})",
        "",
        "| answer | gradings | all accepted | median speedup | min | max | inside its round's honest interval |",
        "| --- | ---: | --- | ---: | ---: | ---: | ---: |",
    ]
    for name, answer in part["answers"].items():
        inside = "-" if name == "honest chain" else f"{answer['held']}/{answer['gradings']}"
        rows.append(
            f"| {name} | {answer['gradings']} | {'yes' if answer['all_accepted'] else 'no'} | {x(answer['median'])}x | "
            f"{x(answer['min'])} | {x(answer['max'])} | {inside} |"
        )
    rows += ["", f"Attack figures inside the honest interval: {part['held']}/{part['attack_gradings']}.", ""]
    return rows
