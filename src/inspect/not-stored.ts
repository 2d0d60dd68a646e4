// Why a thread or a turn may not be in the store yet: under a session's default `durability:
// 'turn'`, nothing of a turn is stored until it ends (docs/session.md, "Durability").

/** The sentence the inspector's and `chunklog export`'s "not stored" messages end with. */
export const RUNNING_NOT_STORED: string =
  "A running turn is stored only when it ends under a session's default durability: 'turn'; " +
  "with durability: 'step' its rows are stored as it runs.";
