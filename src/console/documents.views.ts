/**
 * The documents of a lead's page: each condition of the current decision with its status and the
 * documents that answer it, then the documents of conditions no longer asked; for officers and admins,
 * the review of each received document (accept, or reject with a reason). A document opens at its own
 * address, which serves its bytes inert (no script, its own sandbox): a PDF as a link (Chrome shows no
 * PDF in a sandboxed frame), an image also on the page, behind a disclosure so that only a deliberate
 * opening reads it (each read is audited).
 */
import { REJECTION_REASONS, type DocumentView } from '../documents/index.ts';
import { conditionLabels, type OperatorOutcomeView } from '../outcomes/index.ts';
import { html, type Html } from './html.ts';
import { dateTime, fileSize, label } from './format.ts';
import { csrfField } from './layout.ts';
import {
  conditionStatusLabels,
  documentFormatLabels,
  documentTypeLabels,
  rejectionReasonLabels,
} from './lead-labels.ts';
import { actionsHeading, cells, headRow, scrollTable } from './markup.ts';

type Condition = NonNullable<OperatorOutcomeView['conditions']>[number];

/** Where a document's bytes are served (documents.routes.ts). */
export const documentPath = (leadId: string, documentId: string): string =>
  `/console/leads/${leadId}/documents/${documentId}`;

/** The id of the documents' section, where a review lands back. */
export const documentsAnchor = 'documentos';

const time = (value: string | null) => (value ? html`<time datetime="${value}">${dateTime(value)}</time>` : '—');

/** "Aceptar", and "Rechazar" with its labelled, required reason. */
function reviewForms(csrf: string, leadId: string, document: DocumentView): Html {
  const action = `${documentPath(leadId, document.id)}/review`;
  const name = document.fileName ?? 'el documento';
  const reasonId = `motivo-${document.id}`;
  const reasons = [
    html`<option value="">Elige un motivo</option>`,
    REJECTION_REASONS.map((r) => html`<option value="${r}">${rejectionReasonLabels[r]}</option>`),
  ];
  return html`<div class="review">
<form method="post" action="${action}">${csrfField(csrf)}<input type="hidden" name="status" value="ACCEPTED">
<button type="submit" aria-label="Aceptar ${name}">Aceptar</button></form>
<form method="post" action="${action}" class="reject">${csrfField(csrf)}
<input type="hidden" name="status" value="REJECTED">
<label for="${reasonId}">Motivo del rechazo</label>
<select id="${reasonId}" name="rejectionReason" required>${reasons}</select>
<button type="submit" class="danger" aria-label="Rechazar ${name}">Rechazar</button></form>
</div>`;
}

/** The file's name, opening it; "Descargar"; an image's preview. Nothing to open once erased. */
function fileCell(leadId: string, document: DocumentView): Html {
  if (document.fileName === null) return html`<em>Borrado con los datos personales</em>`;
  const path = documentPath(leadId, document.id);
  const format = html`<br><span class="muted">${label(documentFormatLabels, document.contentType)}</span>`;
  const download = html` · <a href="${path}" download aria-label="Descargar ${document.fileName}">Descargar</a>`;
  const preview = document.contentType.startsWith('image/')
    ? html`<details class="preview"><summary>Ver la imagen</summary>
<img src="${path}" alt="Imagen del documento ${document.fileName}" loading="lazy"></details>`
    : '';
  return html`<a href="${path}">${document.fileName}</a>${download}${format}${preview}`;
}

function documentsTable(
  caption: string,
  leadId: string,
  documents: readonly DocumentView[],
  review: { csrf: string } | undefined,
): Html {
  const rows = documents.map((d) => {
    const status = html`<strong>${label(conditionStatusLabels, d.status)}</strong>${
      d.reviewedAt ? html`<br><span class="muted">${time(d.reviewedAt)}</span>` : ''
    }`;
    const values = [
      label(documentTypeLabels, d.type),
      fileCell(leadId, d),
      fileSize(d.size),
      time(d.uploadedAt),
      status,
      d.status === 'REJECTED' ? label(rejectionReasonLabels, d.rejectionReason) : '—',
    ];
    if (review) values.push(d.status === 'RECEIVED' && d.fileName !== null ? reviewForms(review.csrf, leadId, d) : '—');
    return html`<tr id="documento-${d.id}">${cells(values)}</tr>`;
  });
  const headings = ['Tipo', 'Archivo', 'Tamaño', 'Recibido', 'Estado', 'Motivo del rechazo'];
  return html`${scrollTable(caption)}${headRow(review ? [...headings, actionsHeading] : headings)}
<tbody>${rows}</tbody></table></div>`;
}

function conditionBlock(
  leadId: string,
  condition: Condition,
  index: number,
  documents: readonly DocumentView[],
  review: { csrf: string } | undefined,
): Html {
  const id = `condicion-${index + 1}`;
  const heading = html`<h3 id="${id}">Condición ${index + 1}: ${label(conditionLabels, condition.code)}</h3>`;
  const about = html`<p>${condition.description}</p>
<p>Estado de la condición: <strong>${label(conditionStatusLabels, condition.status)}</strong></p>`;
  const list = documents.length
    ? documentsTable(
        `Documentos de la condición ${index + 1}, del más antiguo al más reciente`,
        leadId,
        documents,
        review,
      )
    : html`<p>El socio aún no ha enviado documentos para esta condición.</p>`;
  return html`<section aria-labelledby="${id}" class="condition-documents">${heading}${about}${list}</section>`;
}

/**
 * The lead page's section, when the current decision asks for something or documents were sent;
 * `canReview`: the viewer may accept and reject (officers and admins).
 */
export function documentsSection(input: {
  csrf: string;
  leadId: string;
  conditions: readonly Condition[];
  documents: readonly DocumentView[];
  canReview: boolean;
}): Html {
  const { leadId, conditions, documents } = input;
  if (conditions.length === 0 && documents.length === 0) return html``;
  const review = input.canReview ? { csrf: input.csrf } : undefined;
  const current = new Set(conditions.map((c) => c.id));
  const blocks = conditions.map((c, i) =>
    conditionBlock(
      leadId,
      c,
      i,
      documents.filter((d) => d.conditionId === c.id),
      review,
    ),
  );
  const earlier = documents.filter((d) => !current.has(d.conditionId));
  const earlierBlock = earlier.length
    ? html`<section aria-labelledby="documentos-anteriores" class="condition-documents">
<h3 id="documentos-anteriores">Documentos de condiciones anteriores</h3>
<p>Respondían a condiciones que la decisión actual ya no pide.</p>
${documentsTable('Documentos de condiciones anteriores, del más antiguo al más reciente', leadId, earlier, review)}
</section>`
    : '';
  const none = conditions.length === 0 ? html`<p>La decisión actual no pide documentos.</p>` : '';
  return html`<section aria-labelledby="${documentsAnchor}" class="card">
<h2 id="${documentsAnchor}">Documentos de las condiciones</h2>${none}${blocks}${earlierBlock}</section>`;
}
