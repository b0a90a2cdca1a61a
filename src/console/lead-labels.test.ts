import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LeadSchema as Lead } from '../leads/index.ts';
import { leadEventTypes } from '../leads/lead-read.schemas.ts';
import { purchaseIntentions } from '../leads/leads.schemas.ts';
import { rules } from '../prequalification/rules/index.ts';
import { REASON_CODES } from '../prequalification/index.ts';
import { MISSING_DATA } from '../prequalification/index.ts';
import { ruleInputs, ruleOutcome } from '../prequalification/explain.ts';
import { loadPrequalificationConfig, NO_RECORD_POLICIES } from '../prequalification/rules-config.ts';
import { DOCUMENT_TYPES, REJECTION_REASONS } from '../documents/index.ts';
import { DOCUMENT_CONTENT_TYPES } from '../documents/document-content.ts';
import {
  documentFormatLabels,
  documentTypeLabels,
  eventLabels,
  fieldLabels,
  noRecordPolicyLabels,
  purchaseIntentionLabels,
  reasonLabels,
  ruleLabels,
  thresholdLabels,
  rejectionReasonLabels,
  warningLabels,
} from './lead-labels.ts';
import { calendarDate, fileSize, monthOfYear, percent } from './format.ts';

type Schema = { anyOf?: Schema[]; properties?: Record<string, Schema>; items?: Schema; enum?: string[] };
/** The object schema of a nullable section (`Union([Object, Null])`). */
const objectOf = (schema: Schema): Schema => schema.anyOf?.find((s) => s.properties) ?? schema;
const lead = Lead as unknown as Schema;
const section = (name: string) => objectOf(lead.properties![name]);

function assertLabelled(table: Record<string, string>, values: readonly string[], what: string) {
  const missing = values.filter((value) => !table[value]);
  assert.deepEqual(missing, [], `${what} without a Spanish label`);
}

describe('the Spanish of a lead page covers every code the service stores', () => {
  test('every field of every section and of the offer', () => {
    const offer = objectOf(section('prequalification').properties!.offer);
    for (const name of ['loanInfo', 'contact', 'address', 'vehicle', 'financial', 'person']) {
      assertLabelled(fieldLabels, Object.keys(section(name).properties!), name);
    }
    assertLabelled(fieldLabels, Object.keys(offer.properties!), 'offer');
  });

  test('every event type, purchase intention, warning and reason', () => {
    assertLabelled(eventLabels, leadEventTypes, 'event type');
    assertLabelled(purchaseIntentionLabels, purchaseIntentions, 'purchase intention');
    assertLabelled(warningLabels, lead.properties!.warnings.items!.properties!.code.enum!, 'warning');
    assertLabelled(reasonLabels, [...REASON_CODES, MISSING_DATA], 'reason');
    assertLabelled(noRecordPolicyLabels, NO_RECORD_POLICIES, 'no-record policy');
  });

  test('every rule, each of its thresholds and each value it reads', () => {
    const config = loadPrequalificationConfig();
    assertLabelled(
      ruleLabels,
      rules.map((r) => r.name),
      'rule',
    );
    for (const rule of rules) {
      assertLabelled(
        thresholdLabels,
        Object.keys(ruleOutcome(rule, { status: 'pass' }, config).threshold),
        `${rule.name} threshold`,
      );
      assertLabelled(fieldLabels, Object.keys(ruleInputs(rule.name, {}, config)), `${rule.name} input`);
    }
  });

  test('dates, months and shares read as people write them', () => {
    assert.equal(calendarDate('1985-04-12'), '12 de abril de 1985');
    assert.equal(calendarDate('1985-04'), '1985-04');
    assert.equal(monthOfYear({ year: 2015, month: 3 }), 'marzo de 2015');
    assert.equal(percent(0.1), '10%');
    assert.deepEqual([845, 1930, 3_250_000].map(fileSize), ['845 B', '1.9 kB', '3.3 MB']);
  });

  test('every document type, format and rejection reason', () => {
    assertLabelled(documentTypeLabels, DOCUMENT_TYPES, 'document type');
    assertLabelled(documentFormatLabels, DOCUMENT_CONTENT_TYPES, 'document format');
    assertLabelled(rejectionReasonLabels, REJECTION_REASONS, 'rejection reason');
  });
});
