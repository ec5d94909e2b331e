export function TierPage() {
  return <section><h1>Tier</h1></section>;
}
