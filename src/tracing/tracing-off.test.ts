import { tracingOffSuite } from '../../test/tracing-suites.ts';

tracingOffSuite();
