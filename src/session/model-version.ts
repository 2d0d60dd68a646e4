/**
 * Why a value is not a v4 language model object, in words a user can act on: a gateway id, a
 * model of an older specification (a provider package made for an older `ai`, such as
 * `@ai-sdk/anthropic@3`, which npm picks on Node 20 unless a major is asked for), or not a model.
 *
 * @param value - what was passed as a model
 * @returns the reason, to follow "must be a v4 language model object"
 */
export function whyNotV4Model(value: unknown): string {
  if (typeof value === 'string') {
    return `: "${value}" is a gateway model id; pass the provider's model object instead`;
  }
  if (typeof value === 'object' && value !== null) {
    const model = value as {
      specificationVersion?: unknown;
      provider?: unknown;
      modelId?: unknown;
    };
    const version = model.specificationVersion;
    if (typeof version === 'string' && version !== 'v4') {
      const name = [model.provider, model.modelId].filter((s) => typeof s === 'string').join(' ');
      return (
        `: ${name ? `${name} is` : 'it is'} a ${version} model, from a provider package made for an ` +
        'older `ai` (npm picks those on Node 20 when no major is asked for). Install the major made ' +
        'for ai@7, for example `npm install @ai-sdk/anthropic@^4` or `@ai-sdk/openai@^4`'
      );
    }
  }
  return '';
}
