/** Who writes to a lead: the partner company and the consumer key of its call (named in the lead's history). */
export interface Actor {
  companyId: string;
  consumerKey: string;
}
