import { PageFrame, NotAvailableYet } from "../../components/layout/page-frame";
import { HeroSearch } from "../../features/browse/components/hero-search";
import { ShieldIcon } from "../../components/ui/icons";

export default function HomeRoute() {
  return (
    <PageFrame title="Find a sublease near campus" hideHeading>
      <section className="hero">
        <div className="hero-text">
          <h1>Find a sublease near campus</h1>
          <p className="lead">
            Verified students, reviewed listings. Take over a lease for a term or list yours in minutes.
          </p>
          <ul className="trust-points" aria-label="Why CampusNest">
            <li>
              <ShieldIcon /> ID-verified listers
            </li>
            <li>
              <ShieldIcon /> Every listing reviewed
            </li>
          </ul>
        </div>
        <HeroSearch />
      </section>
      <NotAvailableYet feature="Browsing listings" />
    </PageFrame>
  );
}
