// What a retention sentinel at a fork point stands for (notes/0121): the forks the page lists
// that fork there, each a link to its page, and a word when the page lists only some forks.
import { forksAtSeq } from '../fork-points.js';
import { html, type SafeHtml } from '../html.js';
import type { ThreadPaths } from '../paths.js';
import { threadLink } from './branches.js';

/**
 * The note beside a retention sentinel at `seq` of the path shown: "fork point of" the listed
 * forks that fork there (links), and, when the page lists only some forks, that others may fork
 * there too. Nothing when no listed fork forks there and every fork is listed.
 *
 * @param paths - the page's thread, path shown and forks
 * @param seq - the sentinel's seq
 * @returns the note, or nothing
 */
export function forkPointNote(paths: ThreadPaths, seq: number): SafeHtml {
  const { threads, listed, more } = forksAtSeq(paths, seq);
  const links = threads.map((fork, i) => html`${i > 0 ? ', ' : ''}${threadLink(fork.id)}`);
  const others = more ? `forks beyond the ${listed} listed may fork here` : '';
  if (threads.length === 0) {
    return others === '' ? html`` : html` <span class="fork-point">${others}</span>`;
  }
  return html` <span class="fork-point">fork point of ${links}${others === '' ? '' : `; ${others} too`}</span>`;
}
