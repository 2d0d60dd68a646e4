/** What to type in an empty thread: the scripted model's commands. */
export function EmptyHint({ scripted = true }: { scripted?: boolean }) {
  if (!scripted) return null;
  return (
    <section className="empty" data-testid="empty">
      <h2>Nothing here yet. Try one of these:</h2>
      <ul>
        <li>
          <code>weather Paris</code> — thinking, then two tools at once with live progress
        </li>
        <li>
          <code>slow</code> — a slow tool: steer or queue a message while it runs, or stop it
        </li>
        <li>
          <code>long 120</code> — a long turn (older chunks load as you scroll up)
        </li>
        <li>
          <code>markdown</code> — a formatted answer
        </li>
        <li>
          <code>ratelimit</code> — the model is rate limited; the fallback takes over
        </li>
        <li>
          <code>error</code> — the provider is down: an error card
        </li>
        <li>
          <code>xss</code> — HTML in the answer, shown as text
        </li>
        <li>
          <code>/notice Deployed v2</code> — a system notice between turns
        </li>
      </ul>
      <p>
        The offline scripted model answers these; with <code>ANTHROPIC_API_KEY</code> or{' '}
        <code>OPENAI_API_KEY</code> set, a real model answers instead.
      </p>
    </section>
  );
}
