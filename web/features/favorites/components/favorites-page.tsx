import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router-dom";
import { PAGE_SIZES } from "@contract/constants";
import type { PublicListing } from "@contract/listings";
import { PageFrame } from "../../../components/layout/page-frame";
import { ListingCard, ListingGridSkeleton } from "../../../components/listing-card";
import { paths } from "../../../config/paths";
import { ApiError } from "../../../lib/api-client";
import { getListing } from "../../../lib/listing-detail";
import { favoriteKeys, getFavorites } from "../../../lib/listings-api";

/** Favourite ids, then each listing's detail; one that cannot be loaded (taken down) is skipped. */
async function loadFavoriteListings(): Promise<PublicListing[]> {
  const favorites = await getFavorites();
  const results = await Promise.allSettled(favorites.map((f) => getListing(f.listing_id)));
  return results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
}

function errorText(err: unknown) {
  if (err instanceof ApiError && (err.status === 401 || err.status === 403)) return "Please sign in to view your favorites";
  if (err instanceof ApiError && err.isNetworkError) return err.message;
  return "Failed to fetch favorites";
}

export function FavoritesPage() {
  // Under favoriteKeys.all, so a heart toggled anywhere refreshes this list.
  const query = useQuery({ queryKey: favoriteKeys.listings(), queryFn: loadFavoriteListings });
  const [visible, setVisible] = useState<number>(PAGE_SIZES.favorites);
  return (
    <PageFrame title="Favorites" lead="Listings you saved. Prices and availability update live.">
      {query.isPending ? (
        <ListingGridSkeleton count={4} />
      ) : query.isError ? (
        <div className="panel empty-state" role="alert">
          <p>{errorText(query.error)}</p>
          <button type="button" className="button button-primary" onClick={() => query.refetch()}>
            Try again
          </button>
        </div>
      ) : query.data.length === 0 ? (
        <div className="panel empty-state">
          <h2>No favorites yet</h2>
          <p className="muted">Tap the heart on a listing to save it here.</p>
          <Link to={paths.home} className="button button-primary">
            Browse Listings
          </Link>
        </div>
      ) : (
        <>
          <div className="listing-grid">
            {query.data.slice(0, visible).map((l) => (
              <ListingCard key={l.id} listing={l} back={paths.favorites} />
            ))}
          </div>
          {visible < query.data.length && (
            <div className="load-more">
              <button type="button" className="button button-ghost button-lg" onClick={() => setVisible((v) => v + PAGE_SIZES.favorites)}>
                Load More
              </button>
            </div>
          )}
        </>
      )}
    </PageFrame>
  );
}
