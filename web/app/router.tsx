import { createBrowserRouter, type RouteObject } from "react-router-dom";
import { paths, routePatterns } from "../config/paths";
import { AppLayout } from "./app-layout";
import { PageLoadingInline } from "../components/ui/spinner";
import { RouteError } from "./route-error";
import HomeRoute from "./routes/home";

/**
 * Each non-home route is its own lazy chunk (the admin panel never loads on public pages). On a
 * first load of such a route the router shows its hydrateFallbackElement in the layout's outlet
 * while the chunk loads (without one it logs a missing-HydrateFallback warning).
 */
const lazyPage = (load: () => Promise<{ default: React.ComponentType }>): Pick<RouteObject, "lazy" | "hydrateFallbackElement"> => ({
  lazy: async () => ({ Component: (await load()).default }),
  hydrateFallbackElement: <PageLoadingInline label="Loading" />,
});

export const routes: RouteObject[] = [
  // The admin panel has its own header: no public navbar, footer or feedback button.
  { path: paths.admin, errorElement: <RouteError />, ...lazyPage(() => import("./routes/admin")) },
  {
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: [
      { path: paths.home, element: <HomeRoute /> },
      { path: routePatterns.listing, ...lazyPage(() => import("./routes/listing")) },
      { path: paths.signup, ...lazyPage(() => import("./routes/signup")) },
      { path: paths.profile, ...lazyPage(() => import("./routes/profile")) },
      { path: paths.favorites, ...lazyPage(() => import("./routes/favorites")) },
      { path: routePatterns.messages, ...lazyPage(() => import("./routes/messages")) },
      { path: paths.create, ...lazyPage(() => import("./routes/create")) },
      { path: routePatterns.edit, ...lazyPage(() => import("./routes/edit")) },
      { path: routePatterns.promote, ...lazyPage(() => import("./routes/promote")) },
      { path: paths.billing, ...lazyPage(() => import("./routes/billing")) },
      { path: paths.verification, ...lazyPage(() => import("./routes/verification")) },
      { path: paths.support, ...lazyPage(() => import("./routes/support")) },
      { path: paths.availability, ...lazyPage(() => import("./routes/availability")) },
      { path: paths.unsubscribe, ...lazyPage(() => import("./routes/unsubscribe")) },
      { path: paths.terms, ...lazyPage(() => import("./routes/terms")) },
      { path: paths.safety, ...lazyPage(() => import("./routes/safety")) },
      { path: "*", ...lazyPage(() => import("./routes/not-found")) },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
