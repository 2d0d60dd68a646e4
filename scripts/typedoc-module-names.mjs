// A TypeDoc plugin: names each module of the API reference after the import path a user types
// (`chunklog`, `chunklog/store`, …) instead of its entry file (`index`, `store`, …).
import { Converter, ReflectionKind } from 'typedoc';

export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.getChildrenByKind(ReflectionKind.Module)) {
      const name = module.name.replace(/^entries\//, '');
      module.name = name === 'index' ? 'chunklog' : `chunklog/${name}`;
    }
  });
}
