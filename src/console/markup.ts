/** Table markup the console's pages repeat: a captioned table in a scrollable region, its header row, cells. */
import { html, type Html, type Value } from './html.ts';

/** Opens a table inside a scrollable region named like its caption. */
export const scrollTable = (caption: string): Html =>
  html`<div class="scroll" tabindex="0" role="region" aria-label="${caption}"><table><caption>${caption}</caption>`;

/** The header row: one column heading a value. */
export const headRow = (headings: readonly Value[]): Html =>
  html`<thead><tr>${headings.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>`;

/** The heading of a column of buttons, read only by screen readers. */
export const actionsHeading = html`<span class="visually-hidden">Acciones</span>`;

/** A row's cells, one `<td>` a value. */
export const cells = (values: readonly Value[]): Html => html`${values.map((v) => html`<td>${v}</td>`)}`;
