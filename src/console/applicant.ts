/**
 * What a credit officer reads first of a lead: who applies, how much they ask for and for which
 * vehicle. "—" where it is not known yet, or no longer (the person's data erased).
 */

/** The parts of a lead's sections read here (the lender's read of a lead has them all). */
interface Person {
  firstName: string;
  secondName: string;
  lastName: string;
  secondLastName: string;
}
interface Vehicle {
  price: number | null;
  year: number;
  brand: { name: string };
  model: { name: string };
  version: string;
}

/** The applicant's full name, as written in their identification ("—" without a person section). */
export function applicantName(person: Person | null): string {
  if (!person) return '—';
  const parts = [person.firstName, person.secondName, person.lastName, person.secondLastName];
  return parts.filter((p) => p && p.trim()).join(' ') || '—';
}

/** The amount to finance: the vehicle's price minus the down payment; null while either is missing. */
export function amountRequested(
  vehicle: Pick<Vehicle, 'price'> | null,
  loanInfo: { downPayment?: number } | null,
): number | null {
  const price = vehicle?.price;
  const downPayment = loanInfo?.downPayment;
  return typeof price === 'number' && typeof downPayment === 'number' ? price - downPayment : null;
}

/** The vehicle as a dealer says it ("Nissan Versa Advance 2024"). */
export function vehicleName(vehicle: Vehicle | null): string {
  if (!vehicle) return '—';
  return [vehicle.brand?.name, vehicle.model?.name, vehicle.version, vehicle.year].filter(Boolean).join(' ') || '—';
}
