// The workspace a landlord or team member acts in (X-Workspace-ID), when
// they hold a role in more than one. Kept like the token, in this tab's
// sessionStorage: another tab may work in another workspace. Unset, the
// API acts in the caller's default workspace.
const KEY = "propman.workspace";

let current: string | null = read();
const listeners = new Set<() => void>();

function read(): string | null {
  try {
    return globalThis.sessionStorage?.getItem(KEY) ?? null;
  } catch {
    return null;
  }
}

export function getWorkspace(): string | null {
  return current;
}

export function setWorkspace(id: string | null): void {
  current = id;
  try {
    if (id) globalThis.sessionStorage?.setItem(KEY, id);
    else globalThis.sessionStorage?.removeItem(KEY);
  } catch {
    // Storage refused: the choice lasts as long as the page.
  }
  listeners.forEach((l) => l());
}

export function subscribeWorkspace(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
