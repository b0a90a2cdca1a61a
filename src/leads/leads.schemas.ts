/** Request schemas of the lead operations, with the spec's names, patterns and enums. */
import { Type } from 'typebox';
import { uuidPattern } from '../shared/index.ts';
import { sandboxAffiliateId } from '../companies/index.ts';

export const phonePattern = '^([0-9]{10})$';
export const addressTextPattern = '^[a-zA-ZñÑáéíóúÁÉÍÓÚ0-9 ().#\\-]*$';
export const purchaseIntentions = ['LESS_THAN_TWO_WEEKS', 'WITHIN_A_MONTH', 'JUST_SIMULATE'] as const;
export const employmentTypes = ['Jubilado', 'Empleado', 'Independiente'] as const;
export const jobTitles = [
  'Abogado',
  'Administrativo',
  'Analista',
  'Arquitecto',
  'Asesor',
  'Comerciante',
  'Comercio industrial',
  'Contabilidad',
  'Derecho',
  'Director',
  'Médico',
  'Educación',
  'Empleado',
  'Empresario',
  'Enfermería',
  'Estudiante',
  'Gerente',
  'Hogar',
  'Ventas',
  'Ingeniería',
  'Jubilado',
  'No especificado',
  'Operador',
  'Transportista',
  'Persona pensionada',
  'Político',
  'Profesor',
  'Psicología',
  'Relaciones públicas',
  'Supervisor',
  'Otro',
] as const;
export const businessLines = [
  'Agricultura',
  'Alimentos preparados',
  'Alquiler',
  'Ama de casa',
  'Armas de fuego',
  'Asociaciones',
  'Comercio',
  'Comunicaciones',
  'Construcción',
  'Desempleado',
  'Editorial',
  'Educación',
  'Empleado',
  'Energía electrica',
  'Estudiante',
  'Fabricación de alimentos',
  'Forestal',
  'Ganadería',
  'Gobierno',
  'Immobiliario',
  'Jubilado',
  'Madera',
  'Manufactura',
  'Maquinaria',
  'Medicina',
  'Minerales no métalicos',
  'Minería',
  'Metalúrgica',
  'Papel',
  'Pensionado',
  'Pesca',
  'Petroquímicos',
  'Petróleo',
  'Química',
  'Religión',
  'Rifas y sorteos',
  'Ropa',
  'Servicios de alimentos',
  'Servicios de transporte',
  'Servicios financieros',
  'Servicios personales',
  'Servicios profesionales',
  'Servicios recreativos',
  'Sin actividad',
  'Textil',
  'Tiendas',
  'Transporte aéreo',
  'Transporte terrestre',
  'Turismo',
  'Vehículos',
  'Otra',
] as const;

const closed = { additionalProperties: false } as const;
const phone = () => Type.String({ pattern: phonePattern, description: 'Ten digits', examples: ['5512345678'] });
const email = () => Type.String({ format: 'email', maxLength: 254, examples: ['ana.lopez@example.com'] });
const money = (description: string) => Type.Number({ minimum: 0, maximum: 100_000_000, format: 'double', description });
const term = () => Type.Integer({ minimum: 1, maximum: 360, format: 'int32', description: 'Months' });
const purchaseIntention = () => Type.Enum(purchaseIntentions);
const text = (maxLength: number, extra: object = {}) => Type.String({ maxLength, ...extra });
const addressText = (maxLength: number, minLength = 1) =>
  Type.String({ pattern: addressTextPattern, minLength, maxLength });

export const LoanInfoPayload = Type.Object(
  {
    downPayment: Type.Optional(money('MXN')),
    term: Type.Optional(term()),
    phone: Type.Optional(phone()),
    purchaseIntention: Type.Optional(purchaseIntention()),
  },
  {
    ...closed,
    minProperties: 1,
    $id: 'LoanInfoPayload',
    examples: [{ downPayment: 60000, term: 48, phone: '5512345678', purchaseIntention: 'WITHIN_A_MONTH' }],
  },
);

export const PublicContactInfoPayload = Type.Object(
  { phone: phone(), email: email() },
  { ...closed, $id: 'PublicContactInfoPayload', examples: [{ phone: '5512345678', email: 'ana.lopez@example.com' }] },
);

export const ContactPayload = Type.Object(
  { phone: Type.Optional(phone()), email: Type.Optional(email()) },
  {
    ...closed,
    minProperties: 1,
    $id: 'ContactPayload',
    examples: [{ phone: '5587654321', email: 'ana.lopez@example.com' }],
  },
);

export const AddressPayload = Type.Object(
  {
    street: addressText(100),
    number: addressText(20),
    interior: Type.Optional(addressText(20, 0)),
    zipCode: Type.String({ pattern: '^\\d{5}$' }),
    neighborhood: addressText(65, 0),
  },
  {
    ...closed,
    $id: 'AddressPayload',
    examples: [
      { street: 'Av. Álvaro Obregón', number: '120', interior: '4B', zipCode: '06700', neighborhood: 'Roma Norte' },
    ],
  },
);

export const AutoLeadPayload = Type.Object(
  {
    id: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Version id from the vehicle catalog' }),
    price: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 100_000_000, format: 'double', description: 'Estimated price, MXN' }),
    ),
  },
  { ...closed, $id: 'AutoLeadPayload', examples: [{ id: 371234, price: 320000 }] },
);

export const StartDate = Type.Object(
  {
    year: Type.Integer({ minimum: 1900, maximum: 2200, format: 'int32' }),
    month: Type.Integer({ minimum: 1, maximum: 12, format: 'int32' }),
  },
  { ...closed, $id: 'StartDate' },
);

export const FinancialPayload = Type.Object(
  {
    employmentType: Type.Optional(Type.Enum(employmentTypes)),
    startEmploymentDate: Type.Optional(
      Type.String({
        format: 'date',
        maxLength: 10,
        description:
          'The day the current employment began. Pre-qualification counts seniority from it; when only ' +
          '`startDate` is given, from the first day of the month after `startDate` (docs/prequalification.md).',
      }),
    ),
    // The year and month the current employment began, when the day is not known.
    startDate: Type.Optional(StartDate),
    jobPosition: Type.Optional(text(100)),
    jobTitle: Type.Optional(Type.Enum(jobTitles)),
    businessLine: Type.Optional(Type.Enum(businessLines)),
    employmentCompany: Type.Optional(text(150)),
    income: Type.Optional(money('Monthly income, MXN')),
  },
  {
    ...closed,
    minProperties: 1,
    $id: 'FinancialPayload',
    examples: [
      {
        employmentType: 'Empleado',
        startDate: { year: 2019, month: 3 },
        jobPosition: 'Analista de crédito',
        jobTitle: 'Analista',
        businessLine: 'Servicios financieros',
        employmentCompany: 'Comercial del Centro SA de CV',
        income: 45000,
      },
    ],
  },
);

const name = (minLength: number) => Type.String({ minLength, maxLength: 60 });
export const PersonPayload = Type.Object(
  {
    firstName: name(1),
    secondName: name(0),
    lastName: name(1),
    secondLastName: name(0),
    rfc: Type.String({ minLength: 1, maxLength: 20, description: 'Persona física RFC (13 characters)' }),
    birthDate: Type.String({ minLength: 1, maxLength: 32, description: 'YYYY-MM-DD' }),
  },
  {
    ...closed,
    $id: 'PersonPayload',
    examples: [
      {
        firstName: 'Ana',
        secondName: 'María',
        lastName: 'López',
        secondLastName: 'García',
        rfc: 'LOGA900215A12',
        birthDate: '1990-02-15',
      },
    ],
  },
);

export const SecurityTokenInfoDTO = Type.Object(
  { user_id: Type.Optional(Type.String({ pattern: uuidPattern, format: 'uuid' })), user_type: Type.Optional(text(64)) },
  { ...closed, $id: 'SecurityTokenInfoDTO' },
);

export const AutoFinB2BLeadCreatePayload = Type.Object(
  {
    externalAutoId: Type.Optional(text(100)),
    phone: Type.Optional(phone()),
    email: Type.Optional(email()),
    downPayment: Type.Optional(money('MXN')),
    term: Type.Optional(term()),
    purchaseIntention: Type.Optional(purchaseIntention()),
  },
  { ...closed, $id: 'AutoFinB2BLeadCreatePayload' },
);

export const LeadCreateRequest = Type.Object(
  {
    affiliate: Type.Optional(SecurityTokenInfoDTO),
    autoFinB2BLeadCreatePayload: Type.Optional(AutoFinB2BLeadCreatePayload),
  },
  {
    ...closed,
    $id: 'LeadCreateRequest',
    description:
      'The whole body is optional: no body creates an empty lead. ' +
      'The example’s affiliate is the sandbox demo company’s.',
    examples: [
      {
        affiliate: { user_id: sandboxAffiliateId, user_type: 'SELLER' },
        autoFinB2BLeadCreatePayload: {
          externalAutoId: 'STOCK-8841',
          phone: '5512345678',
          email: 'ana.lopez@example.com',
          downPayment: 60000,
          term: 48,
          purchaseIntention: 'WITHIN_A_MONTH',
        },
      },
    ],
  },
);

export const LeadIdParams = Type.Object({
  leadId: Type.String({ pattern: uuidPattern, description: 'Lead id (uuid)' }),
});
