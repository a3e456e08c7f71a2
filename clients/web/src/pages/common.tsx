import { Alert, Loader, Center } from "@mantine/core";
import { useErrorText } from "../hooks";

export function Failure({ error }: { error: unknown }) {
  const text = useErrorText();
  if (!error) return null;
  return (
    <Alert color="red" role="alert" variant="light">
      {text(error)}
    </Alert>
  );
}

export function Loading() {
  return (
    <Center py="xl">
      <Loader aria-label="…" />
    </Center>
  );
}

// Where to go after signing in: only a path of this app, so that a crafted
// link cannot send the reader to another site.
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  return next;
}
