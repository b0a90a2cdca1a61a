/**
 * The sandbox's demo operator, created with the demo company at the first start of a fresh database:
 * an admin who can sign in to the console at once with the e-mail and the generated password the
 * start banner shows once (docs/sandbox.md).
 */
import { generatePassword, type OperatorsService } from '../operators/index.ts';

export const demoOperatorName = 'Operador demo';
export const demoOperatorEmail = 'operador@demo.autofin.test';

export interface DemoOperator {
  email: string;
  password: string;
}

export async function createDemoOperator(operators: Pick<OperatorsService, 'create'>): Promise<DemoOperator> {
  const password = generatePassword();
  await operators.create({ name: demoOperatorName, role: 'admin', email: demoOperatorEmail, password });
  return { email: demoOperatorEmail, password };
}
