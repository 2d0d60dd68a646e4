import fc from 'fast-check';

// CI draws the properties' cases from a seed of the commit it tests (CHUNKLOG_FC_SEED, set by
// .ci/run): a run of .ci/run on a fresh clone of a commit replays the cases CI will try, and each
// new commit explores new ones. Without it, each run draws its own seed (fast-check prints it with
// any counterexample: `{ seed, path }` replays it).
const seed = process.env.CHUNKLOG_FC_SEED;
if (seed !== undefined && seed !== '') {
  const value = Number(seed);
  if (!Number.isSafeInteger(value)) {
    throw new Error(`CHUNKLOG_FC_SEED must be an integer, not ${JSON.stringify(seed)}`);
  }
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: value | 0 });
}
