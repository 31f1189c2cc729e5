import { Alert } from "./alert";

/** A form's answer under it: the error when there is one, else what was saved. */
export function FormOutcome({ error, done }: { error: string | null | undefined; done: string | null | undefined }) {
  if (error)
    return (
      <Alert as="p" role="alert">
        {error}
      </Alert>
    );
  if (done)
    return (
      <p role="status" className="break-words text-sm text-emerald-800">
        {done}
      </p>
    );
  return null;
}
