export function ThrottlePage() {
  return <section><h1>Throttle</h1></section>;
}
