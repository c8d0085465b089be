"""bench/search.py's report on stdout, from the figures it also writes as JSON."""

from bench.mix import COMPANY_MIX, LOGO_MIX
from bench.search_server import CONCURRENCY, WORKERS


def fmt_ms(value: float) -> str:
    return f"{value:7.1f}" if value < 100 else f"{value:7.0f}"


def print_report(result: dict) -> None:
    machine, data = result["machine"], result["database"]
    print()
    print(
        f"Search benchmark, {data['companies']:,} companies, {data['logos']:,} logos,"
        f" {data['alternative_names']:,} alternative names"
    )
    print(f"date {result['date']}, code {result['code']}")
    print(
        f"machine: {machine['nproc']} CPUs, Python {machine['python']},"
        f" PostgreSQL {data['server_version']}, Django {machine['django']},"
        f" DRF {machine['djangorestframework']}, gunicorn {machine['gunicorn']}"
        f" ({WORKERS} sync workers), {machine['wrk']}"
    )
    print(f"load average before the run: {machine['loadavg_before']}")
    if result["arguments"]["pgoptions"]:
        print(f"PGOPTIONS for the server: {result['arguments']['pgoptions']}")
    print()
    header = (
        f"{'phase':<24}{'conc':>5}{'requests':>10}{'req/s':>9}{'p50 ms':>8}{'p95 ms':>8}"
        f"{'p99 ms':>8}{'max ms':>8}{'errors':>7}{'distinct':>9}{'srv CPU':>8}  other CPU"
    )
    print(header)
    print("-" * len(header))
    for phase in result["phases"]:
        latency = phase["latency_ms"]
        load = phase["load"]
        other = f"{load['other']:.2f} cores" if load else "?"
        if load and load["top_other"] and load["other"] >= 0.05:
            name, cores = load["top_other"][0]
            other += f" (top: {cores:.2f} {name[:40]})"
        repeated = "+" if phase["repeated_paths"] else ""
        distinct = "-" if phase["name"] == "trivial" else f"{phase['distinct_paths']:,}"
        print(
            f"{phase['name']:<24}{phase['concurrency']:>5}{phase['requests']:>10,}"
            f"{phase['rps']:>9.1f}{fmt_ms(latency['p50']):>8}{fmt_ms(latency['p95']):>8}"
            f"{fmt_ms(latency['p99']):>8}{fmt_ms(latency['max']):>8}{phase['errors']:>7}"
            f"{distinct:>8}{repeated:1}{phase['server_cpu_ms'] or 0:>8.2f}  {other}"
        )
    print("(distinct: distinct paths sent; '+': the pool ran out: wrk repeated paths, c=1 stopped;")
    print(" srv CPU: ms of CPU that gunicorn and PostgreSQL spent per request;")
    print(" other CPU: CPU used by processes outside the benchmark, of 2 cores)")
    if per_kind := result["ratios"]["per_kind_over_trivial_rps_c8"]:
        print(f"req/s at concurrency {CONCURRENCY} as a share of the trivial endpoint's:")
        for name, share in per_kind.items():
            print(f"  {name:<32}{share:>7.1%}")
    for phase in result["phases"]:
        if phase["error_sample"]:
            print(f"errors in {phase['name']}: {phase['error_sample']}")

    for phase in result["phases"]:
        mixes = {"company search": COMPANY_MIX, "logo search": LOGO_MIX}
        mix = mixes.get(phase["name"])
        if not phase["by_kind"] or mix is None:
            continue
        print()
        print(f"{phase['name']} at concurrency 1, by kind of query:")
        print(f"  {'kind':<12}{'share':>6}{'requests':>9}{'p50':>8}{'p95':>8}{'p99':>8}{'max':>8}")
        for kind, figures in phase["by_kind"].items():
            print(
                f"  {kind:<12}{mix[kind][0]:>6.0%}{figures['requests']:>9,}"
                f"{fmt_ms(figures['p50']):>8}{fmt_ms(figures['p95']):>8}"
                f"{fmt_ms(figures['p99']):>8}{fmt_ms(figures['max']):>8}"
            )

    print()
    print("Search storage, MB (per 100,000 companies):")
    storage = data["storage"]
    for name, size in storage["megabytes"].items():
        per = storage["megabytes_per_100000_companies"][name]
        print(f"  {name:<52}{size:>9.1f}{per:>9.1f}")

    print()
    print("Mix of company search:")
    for kind, (share, what) in COMPANY_MIX.items():
        print(f"  {share:>4.0%} {kind:<11} {what}")
    print("Mix of logo search:")
    for kind, (share, what) in LOGO_MIX.items():
        print(f"  {share:>4.0%} {kind:<11} {what}")
    spelling = result["mix"]["spelling_only"]
    print(
        "  distinct by meaning except "
        f"{sum(spelling['company'].values()):,} company and {sum(spelling['logo'].values()):,}"
        " logo paths distinct by spelling only (case, accents, page=1, pageSize=20)"
    )

    if result["explain_error"]:
        print()
        print(f"EXPLAIN failed: {result['explain_error']}")
    if result["explain"]:
        print()
        print("Slowest searches at concurrency 1, their SQL again under EXPLAIN ANALYZE:")
        for item in result["explain"]:
            print(f"  {item['path']}  ({item['kind']}, {item['http_ms']:.1f} ms over HTTP,")
            print(f"    total={item['total']}, SQL {item['sql_ms']:.1f} ms)")
            for query in item["queries"]:
                print(f"    {query['role']:<8} {query['execution_ms']:7.2f} ms  {query['nodes']}")

    print()
    targets = result["targets"]
    for target in targets.values():
        verdict = "PASS" if target["met"] else "FAIL"
        print(f"target: {target['what']}: {target['measured']} -> {verdict}")
    cpu_ratio = result["ratios"]["trivial_over_company_server_cpu_c8"]
    if cpu_ratio:
        print(
            f"        (server CPU per request, trivial / company search at c={CONCURRENCY}:"
            f" {cpu_ratio:.1%}; other load on the box barely moves this one)"
        )
