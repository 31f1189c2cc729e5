/**
 * `npm run bench -- soak` (issue 33 item 5): the production server under a fixed rate of mixed traffic
 * for a bounded time, its process group's RSS sampled every 10 s; the slope after warm-up (MiB/min)
 * must stay under 1 MiB/min. To be written: see the issue.
 */
export interface SoakResult {
  ok: boolean;
}

export async function measureSoak(_: {
  root: string;
  prepareDatabase: (url?: string) => Promise<void>;
  migrate: (env: NodeJS.ProcessEnv) => void;
}): Promise<SoakResult> {
  throw new Error("bench soak: not written yet");
}
