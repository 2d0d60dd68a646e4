// The page: one of two views of the same threads, picked by `?view=` (`chunks`, the default, or
// `usechat`); `?thread=` picks the thread and `?limit=` the chunk view's eviction limit.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import './styles.css';

const params = new URLSearchParams(location.search);
const view = params.get('view') === 'usechat' ? 'usechat' : 'chunks';
const threadId = params.get('thread') ?? 'react';
const limit = Number(params.get('limit') ?? 60);

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App view={view} threadId={threadId} limit={limit} />
  </StrictMode>,
);
