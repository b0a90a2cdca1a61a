/**
 * The credit bureau module's face. Verification asks it about a lead's subject (the person and address
 * it builds) and stores the answer; the leads module reads the stored report to pre-qualify. Behind
 * it: the adapter BUREAU_PROVIDER chooses (sandbox, the `http` gateway contract of
 * docs/bureau-http-contract.md, or Círculo de Crédito as in docs/bureau-circulo.md) and the encrypted
 * report store. Calls go through the shared outbound layer
 * (time limit, circuit breaker); its failures become 412 / 603XXX in src/providers/outbound.ts.
 */

export type { BureauAccount, BureauAnswer, BureauReport, BureauSubject } from './report.ts';
export { createBureauModule, type Bureau } from './bureau.module.ts';
