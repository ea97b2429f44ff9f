import { Link } from "react-router-dom";
import { REVIEW_TIME } from "@contract/waits";
import { PROMOTION_PLAN } from "@contract/promotions";
import { PageFrame } from "../../components/layout/page-frame";
import { SUPPORT_EMAIL } from "../../config/env";
import { paths } from "../../config/paths";

export default function SupportRoute() {
  return (
    <PageFrame
      title="Support"
      lead="Answers to common questions, how to stay safe, and how to reach a person."
      width="narrow"
    >
      <article className="prose">
        <h2>Contact us</h2>
        <p>
          Email <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> or use the feedback button on any page. We
          answer within one business day. Include the link to the listing or conversation you are writing about.
        </p>

        <h2 id="safety">Stay safe from rental scams</h2>
        <ul>
          <li>
            <strong>Never pay before you see the place</strong> (in person, or on a live video call with the lister
            inside it). Scammers copy photos from real listings.
          </li>
          <li>
            <strong>Keep the conversation on CampusNest.</strong> Someone who pushes you to text, email or a payment
            app right away is a warning sign.
          </li>
          <li>
            <strong>No wire transfers, gift cards or crypto.</strong> Sign a written sublease agreement that your
            landlord has approved before any money moves.
          </li>
          <li>
            <strong>Rent far below the area&apos;s prices</strong> or a story about being abroad and mailing keys are
            classic scams. Report the listing to us.
          </li>
        </ul>
        <p>
          <Link to={paths.safety}>Read the full safety guide: how to spot a scam and how to report one</Link>
        </p>

        <h2>Frequently asked questions</h2>
        <h3>Why do I have to verify my identity to post?</h3>
        <p>
          Every lister shows a student ID, driver&apos;s license or passport to our team once. It is the main reason
          scams are rare here. Documents are stored privately, seen only by reviewers, and never shown to other
          students. Review takes {REVIEW_TIME}.
        </p>
        <h3>How long until my listing is live?</h3>
        <p>
          Our team reviews every new listing, typically within {REVIEW_TIME}. Changing the title, description,
          university, unit type, address or photos of a live listing, or cutting its rent a lot, sends it back for a
          short review.
        </p>
        <h3>What does promoting a listing do?</h3>
        <p>
          A promoted listing is shown first in search results for its university for a week ({PROMOTION_PLAN.priceLabel}). It renews
          weekly until you cancel; cancelling keeps the promotion until the end of the week you paid for. Marking
          the listing taken, hiding or deleting it stops the renewal the same way, and a receipt is emailed for every
          payment.
        </p>
        <h3>How do I delete my account?</h3>
        <p>
          From your profile. Deleting removes your profile, listings, photos and favourites; messages you already
          sent stay in the other person&apos;s inbox, shown as from a deleted user.
        </p>
        <p>
          See also our <Link to={paths.terms}>Terms of Use</Link>.
        </p>
      </article>
    </PageFrame>
  );
}
