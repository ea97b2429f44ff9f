import { PROMOTION_PLAN } from "@contract/promotions";
import { PageFrame } from "../../components/layout/page-frame";
import { SUPPORT_EMAIL } from "../../config/env";

export default function TermsRoute() {
  return (
    <PageFrame title="Terms of Use" lead="Last updated November 22, 2026" width="narrow">
      <article className="prose">
        <h2>1. What CampusNest is</h2>
        <p>
          CampusNest is a marketplace where university students list and find housing subleases. We are not a party
          to any lease or sublease: agreements are between you, the other student and, where the lease requires it,
          the landlord.
        </p>
        <h2>2. Your account</h2>
        <p>
          You must be at least 18 and give accurate information. Keep your password to yourself; you are responsible
          for what happens under your account. Tell us at once at {SUPPORT_EMAIL} if you think someone else used it.
        </p>
        <h2>3. Identity verification</h2>
        <p>
          To post listings you must verify your identity with a document we review. We store it privately, use it
          only to verify you and to investigate fraud reports, and delete it when you delete your account.
        </p>
        <h2>4. Listings</h2>
        <ul>
          <li>List only places you have the right to sublease, at the real price, with your own recent photos.</li>
          <li>No discriminatory preferences beyond what fair-housing law allows for shared living spaces.</li>
          <li>We review listings before they go live and may reject, hide or remove any listing.</li>
        </ul>
        <h2>5. Conduct</h2>
        <p>
          No scams, harassment, spam or requests for payment outside a written agreement. We may suspend accounts
          that break these rules and report fraud to the authorities.
        </p>
        <h2>6. Promotions and payments</h2>
        <p>
          Promotions cost {PROMOTION_PLAN.price} per {PROMOTION_PLAN.interval}, are charged by our payment processor, renew weekly and can be cancelled at
          any time; a cancelled promotion runs to the end of the paid week. Payments are not refundable except where
          the law requires.
        </p>
        <h2>7. Privacy</h2>
        <p>
          Other students see your name, university and photo, never your email or phone number. We do not sell
          personal data.
        </p>
        <h2>8. Liability</h2>
        <p>
          CampusNest is provided as is. To the extent the law allows, we are not liable for the condition of any
          property or the conduct of any user.
        </p>
        <h2>9. Contact</h2>
        <p>
          Questions about these terms: <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
        </p>
      </article>
    </PageFrame>
  );
}
