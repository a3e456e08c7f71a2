// A locale file as the first page imports it (vite.config.ts).
declare module "*.json?first" {
  const words: Record<string, unknown>;
  export default words;
}
