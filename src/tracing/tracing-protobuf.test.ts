import { tracedFlowSuite } from '../../test/tracing-suites.ts';

tracedFlowSuite('http/protobuf');
