-- The funnel report over long windows (docs/operations.md, "Scale"): per-month counts beside the per-day
-- ones of 019_funnel_days.sql, so a year is read from about twelve rows per company and status instead of
-- 365. Kept by triggers on the per-day counts, in the writing transaction, in the order the per-day rows
-- are written (a month follows its days' order, so writers never wait on each other in a cycle).
create table funnel_lead_months (
  company_id uuid not null,
  month date not null,
  status text not null,
  leads integer not null,
  primary key (company_id, month, status)
);
create table funnel_outcome_months (
  company_id uuid not null,
  month date not null,
  approved integer not null,
  funded integer not null,
  funded_amount numeric not null,
  primary key (company_id, month)
);

create function funnel_lead_months_count() returns trigger language plpgsql as $$
begin
  -- The usual change: a day's count moves; its month moves by as much, in one write.
  if tg_op = 'UPDATE' and (old.company_id, old.day, old.status) = (new.company_id, new.day, new.status) then
    update funnel_lead_months set leads = leads + new.leads - old.leads
      where company_id = new.company_id and month = date_trunc('month', new.day)::date and status = new.status;
    return null;
  end if;
  if tg_op <> 'INSERT' then
    insert into funnel_lead_months as m (company_id, month, status, leads)
      values (old.company_id, date_trunc('month', old.day)::date, old.status, -old.leads)
      on conflict (company_id, month, status) do update set leads = m.leads + excluded.leads;
  end if;
  if tg_op <> 'DELETE' then
    insert into funnel_lead_months as m (company_id, month, status, leads)
      values (new.company_id, date_trunc('month', new.day)::date, new.status, new.leads)
      on conflict (company_id, month, status) do update set leads = m.leads + excluded.leads;
  end if;
  return null;
end
$$;
create trigger funnel_lead_months_count after insert or update or delete on funnel_lead_days
  for each row execute function funnel_lead_months_count();

create function funnel_outcome_months_count() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' and (old.company_id, old.day) = (new.company_id, new.day) then
    update funnel_outcome_months set approved = approved + new.approved - old.approved,
      funded = funded + new.funded - old.funded, funded_amount = funded_amount + new.funded_amount - old.funded_amount
      where company_id = new.company_id and month = date_trunc('month', new.day)::date;
    return null;
  end if;
  if tg_op <> 'INSERT' then
    insert into funnel_outcome_months as m (company_id, month, approved, funded, funded_amount)
      values (old.company_id, date_trunc('month', old.day)::date, -old.approved, -old.funded, -old.funded_amount)
      on conflict (company_id, month) do update set approved = m.approved + excluded.approved,
        funded = m.funded + excluded.funded, funded_amount = m.funded_amount + excluded.funded_amount;
  end if;
  if tg_op <> 'DELETE' then
    insert into funnel_outcome_months as m (company_id, month, approved, funded, funded_amount)
      values (new.company_id, date_trunc('month', new.day)::date, new.approved, new.funded, new.funded_amount)
      on conflict (company_id, month) do update set approved = m.approved + excluded.approved,
        funded = m.funded + excluded.funded, funded_amount = m.funded_amount + excluded.funded_amount;
  end if;
  return null;
end
$$;
create trigger funnel_outcome_months_count after insert or update or delete on funnel_outcome_days
  for each row execute function funnel_outcome_months_count();

-- The months of the counts already kept (creating the triggers made the day tables' writers wait for this
-- transaction, so none is counted twice or missed).
insert into funnel_lead_months (company_id, month, status, leads)
  select company_id, date_trunc('month', day)::date, status, sum(leads) from funnel_lead_days group by 1, 2, 3;
insert into funnel_outcome_months (company_id, month, approved, funded, funded_amount)
  select company_id, date_trunc('month', day)::date, sum(approved), sum(funded), sum(funded_amount)
  from funnel_outcome_days group by 1, 2;
