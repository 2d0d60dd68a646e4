// A tiny side-by-side benchmark harness. These machines are shared and noisy, so every figure is
// a ratio against a baseline measured in the same run: contenders are interleaved round by round
// (in a rotating order), each round times one run of each, and a contender's figure is the ratio
// of its median to the baseline's. The per-round ratios (its time over the baseline's in the same
// round) are printed beside it: their quartiles as the spread, and their median (notes/0077 §4
// says why that is not the figure).
//
// Before each sample the harness forces a full garbage collection, so that one contender's garbage
// is not collected on another's time. A forced collection slows the allocations right after it
// (about 3× for a loop allocating 2,000 small objects: 86 µs after `gc()`, 30 µs without, on
// this machine): a figure of well under a millisecond, timed as one call after `gc()`, measures
// that penalty more than its work. Such comparisons time a `batch` of calls per sample instead
// (each with its own prepared value) and report the time per call: a warm server's cost.
import { performance } from 'node:perf_hooks';

/** One thing to time. `run` gets the value `prepare` made (prepare is not timed). */
export interface Contender<T = unknown> {
  readonly name: string;
  readonly prepare?: () => T | Promise<T>;
  readonly run: (prepared: T) => unknown;
}

/** A limit on a contender's ratio to the baseline (median over median). */
export interface RatioLimit {
  readonly contender: string;
  /** The ratio must be at most this (`within 1.5×`). */
  readonly atMost?: number;
  /** The baseline must be at least this many times slower (`at least 30× faster`): ratio ≤ 1/atLeastFaster. */
  readonly atLeastFaster?: number;
  /** The ratio must be at least this (`at least 0.6× their throughput`, for throughput-style figures). */
  readonly throughputAtLeast?: number;
}

/** The outcome of one comparison. */
export interface Comparison {
  readonly title: string;
  readonly baseline: string;
  readonly medians: Record<string, number>;
  readonly ratios: Record<string, number>;
  readonly verdicts: Array<{
    readonly limit: RatioLimit;
    readonly ok: boolean;
    readonly text: string;
  }>;
}

const results: Comparison[] = [];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function format(ms: number): string {
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(1)} µs`;
}

/**
 * Times `baseline` and `contenders` side by side and prints each contender's median as a ratio
 * of the baseline's, with the spread of its per-round ratios.
 */
// A comparison mixes contenders whose prepared values differ in type.
// biome-ignore lint/suspicious/noExplicitAny: see above
type AnyContender = Contender<any>;

export async function compare(options: {
  title: string;
  baseline: AnyContender;
  contenders: AnyContender[];
  rounds?: number;
  warmup?: number;
  /** Calls timed together per sample, each with its own `prepare`d value; figures are per call. Default 1. */
  batch?: number;
  limits?: RatioLimit[];
  /** Divide each median by this to print a per-item cost (for example the number of events). */
  perItem?: Record<string, number>;
}): Promise<Comparison> {
  const quick = process.env.BENCH_QUICK === '1';
  const rounds = quick ? 3 : (options.rounds ?? 15);
  const warmup = quick ? 1 : (options.warmup ?? 3);
  const batch = options.batch ?? 1;
  const all = [options.baseline, ...options.contenders];
  const samples = new Map<string, number[]>(all.map((c) => [c.name, []]));
  for (let round = 0; round < warmup + rounds; round++) {
    const order = all.map((_, i) => all[(i + round) % all.length] as AnyContender);
    for (const contender of order) {
      const prepared: unknown[] = [];
      for (let i = 0; i < batch; i++)
        prepared.push(contender.prepare ? await contender.prepare() : undefined);
      (globalThis as { gc?: () => void }).gc?.();
      const start = performance.now();
      for (const value of prepared) {
        const out = contender.run(value);
        if (out instanceof Promise) await out;
      }
      const elapsed = (performance.now() - start) / batch;
      if (round >= warmup) samples.get(contender.name)?.push(elapsed);
    }
  }
  const medians: Record<string, number> = {};
  for (const [name, values] of samples) medians[name] = median(values);
  const base = medians[options.baseline.name] as number;
  // Each contender's per-round ratios: its time over the baseline's in the same round
  // (interleaved, so load hits both alike). Their quartiles are the spread, printed with their
  // median; the figure is the ratio of the two medians.
  const ratios: Record<string, number> = {};
  const spreads: Record<string, string> = {};
  const baseSamples = samples.get(options.baseline.name) as number[];
  for (const c of options.contenders) {
    const own = samples.get(c.name) as number[];
    const perRound = own.map((v, i) => v / (baseSamples[i] as number)).sort((a, b) => a - b);
    ratios[c.name] = (medians[c.name] as number) / base;
    const q = (f: number) =>
      perRound[Math.min(perRound.length - 1, Math.floor(f * perRound.length))] as number;
    spreads[c.name] =
      `spread ${q(0.25).toFixed(2)}–${q(0.75).toFixed(2)}× (quartiles of ${perRound.length} rounds; their median ${median(perRound).toFixed(2)}×)`;
  }

  console.log(`\n${options.title}`);
  for (const c of all) {
    const per = options.perItem?.[c.name];
    const perText = per ? `  (${format((medians[c.name] as number) / per)} per item)` : '';
    const ratio =
      c === options.baseline
        ? 'baseline'
        : `${(ratios[c.name] as number).toFixed(2)}× baseline, ${spreads[c.name]}`;
    console.log(
      `  ${c.name.padEnd(58)} ${format(medians[c.name] as number).padStart(10)}  ${ratio}${perText}`,
    );
  }
  const verdicts = (options.limits ?? []).map((limit) => {
    const ratio = ratios[limit.contender] as number;
    let ok = true;
    let want = '';
    if (limit.atMost !== undefined) {
      ok &&= ratio <= limit.atMost;
      want = `≤ ${limit.atMost}×`;
    }
    if (limit.atLeastFaster !== undefined) {
      ok &&= ratio <= 1 / limit.atLeastFaster;
      want = `baseline ≥ ${limit.atLeastFaster}× slower (baseline/contender = ${(1 / ratio).toFixed(1)}×)`;
    }
    if (limit.throughputAtLeast !== undefined) {
      const throughput = 1 / ratio;
      ok &&= throughput >= limit.throughputAtLeast;
      want = `throughput ≥ ${limit.throughputAtLeast}× baseline (is ${throughput.toFixed(2)}×)`;
    }
    const text = `  ${ok ? 'PASS' : 'MISS'} ${limit.contender}: ${ratio.toFixed(2)}× (${want})`;
    console.log(text);
    return { limit, ok, text };
  });
  const comparison: Comparison = {
    title: options.title,
    baseline: options.baseline.name,
    medians,
    ratios,
    verdicts,
  };
  results.push(comparison);
  return comparison;
}

/** Every comparison made so far in this process. */
export function allComparisons(): readonly Comparison[] {
  return results;
}

/**
 * Records a figure measured outside {@link compare} (an absolute latency, for example) with its
 * verdicts, for the summary and `BENCH_STRICT=1`.
 */
export function record(
  title: string,
  verdicts: ReadonlyArray<{ ok: boolean; text: string }>,
): void {
  for (const v of verdicts) console.log(v.text);
  results.push({
    title,
    baseline: '',
    medians: {},
    ratios: {},
    verdicts: verdicts.map((v) => ({ limit: { contender: title }, ok: v.ok, text: v.text })),
  });
}
