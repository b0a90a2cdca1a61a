/** A partner on a running service process, made through its admin API. */

/** A company, a credential and a bearer token through an instance's admin API. */
export async function newPartnerOn(
  base: string,
  adminToken: string,
): Promise<{ token: string; consumerKey: string; headers: Record<string, string> }> {
  const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: admin, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, string>>;
  };
  const company = await post('/admin/companies', { name: 'Autos Procesos' });
  const credential = await post(`/admin/companies/${company.id}/credentials`, {});
  const res = await fetch(`${base}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credential),
  });
  if (!res.ok) throw new Error(`token: ${res.status} ${await res.text()}`);
  const token = ((await res.json()) as { access_token: string }).access_token;
  return { token, consumerKey: credential.consumer_key, headers: { authorization: `Bearer ${token}` } };
}
