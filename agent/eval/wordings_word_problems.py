"""The word-problem wordings of the `problems` set: `WORD_DEV` to tune against, `WORD_TEST`
to report.

Why written apart: a test sentence must not be a dev sentence with a word swapped, so the
test family puts the question first or the data in another order, and names the same
quantities with other words (altitude, elevation, touches down; overheads, per-item cost).
Every template states its units; `agent.eval.wordings` explains why they are plain data.

Placeholders: {f} a formula in t or q (h(t), s(t), C(q), P(q)); {a}, {b}, {c} the numbers of
h(t) = -a t^2 + b t + c (initial speed b m/s, initial height c m); {H} a height; {P} a
perimeter; {A} an area; {d} a difference; {r} a radius; {k} a point; {p} a price, {u} a unit
cost, {F} a fixed cost; {hi} the top of an interval; {a1}, {c1}, {r1}, {a2}, {c2}, {r2} two
days' adult and child tickets and takings; {s} a sum.
"""

from __future__ import annotations

from agent.eval.wordings_single import Family

_H = frozenset({"f"})
_ABC = frozenset({"a", "b", "c"})
# The placeholders a template of each key must hold, one set of the alternatives whole: the
# question must give all the math its answer needs.
WORD_SLOTS: dict[str, tuple[frozenset[str], ...]] = {
    "projectile-landing": (_H, _ABC),
    "projectile-peak": (_H, _ABC),
    "projectile-reach": (_H | {"H"}, _ABC | {"H"}),
    "area-max": (frozenset({"P"}),),
    "area-side": (frozenset({"A", "d"}),),
    "area-circle": (frozenset({"r"}),),
    "rate-position": (frozenset({"f", "k"}),),
    "rate-cost": (frozenset({"f", "k"}),),
    "cost-break-even": (frozenset({"p", "u", "F"}),),
    "cost-average": (frozenset({"f", "hi"}),),
    "cost-profit": (frozenset({"f", "hi"}),),
    "system-tickets": (frozenset({"a1", "c1", "r1", "a2", "c2", "r2"}),),
    "system-numbers": (frozenset({"s", "d"}),),
}

WORD_DEV: Family = {
    "projectile-landing": (
        "A ball is thrown upward from the top of a building. Its height in metres after t "
        "seconds is h(t) = {f}. After how many seconds does it hit the ground?",
        "The height of a rock above the ground is h(t) = {f} metres, where t is the time in "
        "seconds. When does the rock land?",
        "A stone is launched from a {c} m high cliff with an upward speed of {b} m/s, so its "
        "height is h(t) = -{a}t^2 + {b}t + {c} metres after t seconds. How long until it "
        "reaches the ground?",
        "h(t) = {f} gives the height in metres of a ball t seconds after it is thrown. At what "
        "time does the ball hit the ground?",
        "A model rocket's height is h(t) = {f} m at time t s. How many seconds pass before it "
        "comes back down to the ground?",
    ),
    "projectile-peak": (
        "A ball is thrown straight up and its height after t seconds is h(t) = {f} metres. "
        "What is the maximum height it reaches?",
        "The height of a rock is h(t) = {f} m, where t is in seconds. How high does it go?",
        "A stone is thrown upward at {b} m/s from a height of {c} m; its height is "
        "h(t) = -{a}t^2 + {b}t + {c} metres. What is its greatest height?",
        "h(t) = {f} is the height in metres of a ball after t seconds. Find the highest point "
        "it reaches.",
        "A model rocket follows h(t) = {f} metres (t in seconds). What maximum height does it "
        "reach?",
    ),
    "projectile-reach": (
        "A ball is thrown upward and its height after t seconds is h(t) = {f} metres. When "
        "does it first reach a height of {H} m?",
        "The height of a rock is h(t) = {f} metres at time t seconds. After how many seconds "
        "is it {H} m above the ground for the first time?",
        "h(t) = {f} gives a ball's height in metres after t seconds. At what time does it "
        "first get to {H} metres on the way up?",
        "A stone launched from {c} m at {b} m/s has height h(t) = -{a}t^2 + {b}t + {c} metres "
        "after t seconds. How long does it take to first reach {H} m?",
        "A model rocket's height is h(t) = {f} m after t s. How many seconds until it first "
        "reaches {H} m?",
    ),
    "area-max": (
        "A farmer has {P} metres of fencing to enclose a rectangular field. What is the "
        "largest area, in square metres, she can enclose?",
        "A rectangle has a perimeter of {P} m. What is the maximum possible area of the rectangle?",
        "What is the greatest area of a rectangular garden that can be fenced with {P} metres "
        "of fence?",
        "A rectangular pen is built with {P} m of fencing in total. Find the maximum area it "
        "can have.",
        "Among all rectangles with perimeter {P} metres, which area is the largest?",
    ),
    "area-side": (
        "A rectangular garden is {d} m longer than it is wide and has an area of {A} square "
        "metres. How wide is it?",
        "The length of a rectangle is {d} metres more than its width. If the area is {A} m², "
        "what is the width?",
        "A rectangle has area {A} m² and its length exceeds its width by {d} m. Find the width.",
        "A rectangular room has an area of {A} square metres, and it is {d} metres longer than "
        "it is wide. What is its width in metres?",
        "The area of a rectangular field is {A} m². Its length is its width plus {d} m. How "
        "wide is the field?",
    ),
    "area-circle": (
        "A circular pond has a radius of {r} metres. What is its area? Give the exact answer "
        "in terms of pi.",
        "Find the exact area of a circle with radius {r} m.",
        "What is the area of a circular garden of radius {r} metres, in square metres, exactly?",
        "A round table top has a radius of {r} m. Calculate its area exactly (in terms of π).",
        "The radius of a circle is {r} metres. Find its area in m², leaving pi in the answer.",
    ),
    "rate-position": (
        "A car's position in metres after t seconds is s(t) = {f}. What is its velocity at "
        "t = {k} seconds?",
        "The distance travelled by a cyclist is s(t) = {f} metres after t seconds. How fast "
        "is she going at t = {k}?",
        "An object moves along a line with position s(t) = {f} m, t in seconds. Find its speed "
        "at time {k} s.",
        "s(t) = {f} gives the position in metres of a particle at time t seconds. What is its "
        "velocity when t = {k}?",
        "A train's position is s(t) = {f} metres after t seconds. What is its instantaneous "
        "velocity at t = {k} s?",
    ),
    "rate-cost": (
        "The cost of producing q items is C(q) = {f} dollars. What is the marginal cost at "
        "q = {k}?",
        "A factory's cost function is C(q) = {f} dollars for q units. Find the rate of change "
        "of cost when q = {k}.",
        "C(q) = {f} is the cost in dollars of making q chairs. What is the marginal cost when "
        "{k} chairs are made?",
        "If it costs C(q) = {f} dollars to produce q units, how fast is the cost rising at "
        "q = {k}?",
        "The total cost of q units is C(q) = {f} dollars. Compute the marginal cost C'({k}).",
    ),
    "cost-break-even": (
        "A company sells a product for {p} dollars each. Fixed costs are {F} dollars and each "
        "unit costs {u} dollars to make. How many units must it sell to break even?",
        "Revenue is R(q) = {p}q and cost is C(q) = {F} + {u}q, in dollars. At what number of "
        "units q does revenue equal cost?",
        "Each T-shirt sells for ${p} and costs ${u} to print, plus ${F} in fixed costs. How "
        "many T-shirts are needed to break even?",
        "Find the break-even quantity when the price is {p} dollars per unit, the variable "
        "cost is {u} dollars per unit and the fixed cost is {F} dollars.",
        "A bakery has fixed costs of {F} dollars. Each cake costs {u} dollars to bake and "
        "sells for {p} dollars. How many cakes must be sold for revenue to equal cost?",
    ),
    "cost-average": (
        "The cost of producing q units is C(q) = {f} dollars, for 1 ≤ q ≤ {hi}. What is the "
        "minimum average cost per unit?",
        "A firm's total cost is C(q) = {f} dollars. The average cost is C(q)/q. Find the "
        "smallest average cost for q between 1 and {hi}.",
        "For 1 <= q <= {hi}, the cost of making q items is C(q) = {f} dollars. What is the "
        "lowest possible cost per item?",
        "C(q) = {f} dollars is the cost of q units. Minimise the average cost C(q)/q on the "
        "interval [1, {hi}]. What is the minimum?",
        "Producing q bikes costs C(q) = {f} dollars (1 to {hi} bikes). What is the least "
        "average cost per bike?",
    ),
    "cost-profit": (
        "A company's profit from selling q units is P(q) = {f} dollars. It can make at most "
        "{hi} units. What is the maximum profit?",
        "The profit function is P(q) = {f} dollars for 0 ≤ q ≤ {hi}. Find the largest profit.",
        "P(q) = {f} is the profit in dollars from q items, and no more than {hi} items can be "
        "made. What is the greatest possible profit?",
        "Find the maximum of the profit P(q) = {f} dollars on the interval [0, {hi}].",
        "A shop earns a profit of P(q) = {f} dollars when it sells q bags, with q between 0 "
        "and {hi}. How much is the maximum profit?",
    ),
    "system-tickets": (
        "On Monday a cinema sold {a1} adult tickets and {c1} child tickets for {r1} dollars. "
        "On Tuesday it sold {a2} adult and {c2} child tickets for {r2} dollars. What is the "
        "price of an adult ticket and of a child ticket?",
        "{a1} adult tickets and {c1} child tickets cost {r1} dollars, and {a2} adult tickets "
        "and {c2} child tickets cost {r2} dollars. Find the price of each kind of ticket.",
        "A school play took in ${r1} from {a1} adults and {c1} children on the first night "
        "and ${r2} from {a2} adults and {c2} children on the second. How much is an adult "
        "ticket, and how much is a child ticket?",
        "A zoo charges one price for adults and another for children. A group of {a1} adults "
        "and {c1} children paid {r1} dollars, and a group of {a2} adults and {c2} children "
        "paid {r2} dollars. What are the two prices?",
        "Adult and child tickets to a museum have fixed prices. Sales were {r1} dollars for "
        "{a1} adult and {c1} child tickets, and {r2} dollars for {a2} adult and {c2} child "
        "tickets. Find both ticket prices.",
    ),
    "system-numbers": (
        "The sum of two numbers is {s} and their difference is {d}. What are the two numbers?",
        "Two numbers add up to {s}, and one is {d} more than the other. Find both numbers.",
        "Find two numbers whose sum is {s} and whose difference is {d}.",
        "I am thinking of two numbers. Together they make {s}, and the larger minus the "
        "smaller is {d}. What are they?",
        "Two numbers have a sum of {s} and a difference of {d}. Find the larger and the "
        "smaller number.",
    ),
}

WORD_TEST: Family = {
    "projectile-landing": (
        "How many seconds until the ball touches down? Its altitude is modelled by {f} "
        "metres, t seconds after the throw.",
        "I tossed a ball straight up at {b} m/s off a {c} m ledge, so it sits {f} metres up "
        "after t seconds. When does it land?",
        "Elevation of a flare in metres: {f}, with t in seconds. Find the moment it strikes "
        "the ground.",
        "when does something at height {f} m (t in s) get back to ground level?",
        "Physics homework: a pebble's height after t seconds is {f} metres. Time of impact "
        "with the ground, in seconds?",
    ),
    "projectile-peak": (
        "What's the top altitude, in metres, of a ball whose height t seconds after launch is {f}?",
        "Peak elevation please: a flare rises and falls as {f} metres with t in seconds.",
        "Starting {c} m up and moving upward at {b} m/s, a pebble follows {f} metres after t "
        "seconds. How far above the ground is it at its highest?",
        "for a ball at {f} metres after t seconds, how high above ground does it get at most?",
        "Trajectory: y(t) = {f} in metres, t in seconds. Give the apex height.",
    ),
    "projectile-reach": (
        "On its way up, when is a ball with altitude {f} metres (t seconds) exactly {H} m high?",
        "Time, in seconds, at which a flare following {f} metres first passes {H} metres of "
        "elevation?",
        "{H} m: that's the height I need. The pebble's height is {f} m after t s — earliest "
        "moment it gets there?",
        "earliest t in seconds with {f} = {H}, where the left side is a ball's height in metres",
        "Thrown from {c} metres up at {b} m/s, a ball is at {f} metres t seconds later. How "
        "soon is it {H} metres above the ground?",
    ),
    "area-max": (
        "{P} m of rope marks out a rectangle on the beach. Biggest enclosed area in m²?",
        "I'm building a rectangular dog run and have {P} metres of mesh for the whole border "
        "— how many square metres can it cover at best?",
        "Maximise the area of a rectangular plot whose boundary measures {P} metres in total.",
        "if the four sides of a rectangle add up to {P} m, how large can its surface get?",
        "Border length fixed at {P} metres, shape rectangular: find the top possible area (m²).",
    ),
    "area-side": (
        "Width of a rectangular patio covering {A} m², if the long side is {d} m more than the "
        "short one?",
        "{A} square metres of carpet exactly covers a rectangular floor whose length beats "
        "its width by {d} metres. What's the width?",
        "my rectangular yard: area {A} m², long side = short side + {d} m. how wide is it?",
        "Determine the shorter side of a rectangle with area {A} m² when the longer side is "
        "{d} m greater.",
        "The short side of a {A} m² rectangular plot is {d} metres less than the long side; "
        "give the short side in metres.",
    ),
    "area-circle": (
        "Exact surface, in m², of a disc {r} metres in radius?",
        "{r} m from the centre to the edge of a round lawn — how many square metres of lawn, "
        "as an exact multiple of π?",
        "a round rug with radius {r} m covers how much floor? exact please",
        "Compute, keeping π symbolic, the space inside a circle whose radius measures {r} metres.",
        "Circular fountain basin, radius {r} metres: area in square metres (exact).",
    ),
    "rate-position": (
        "How fast, in m/s, is a runner moving {k} seconds in, if she has covered {f} metres "
        "after t seconds?",
        "Instantaneous rate of change of a drone's position {f} (metres, t in seconds) at the "
        "{k}-second mark?",
        "the odometer reads {f} metres t seconds after the start. speed at t = {k}?",
        "At {k} s, what is the velocity of a cart located at p(t) = {f} m after t seconds?",
        "Metres travelled after t seconds: {f}. Work out the speed (m/s) exactly {k} seconds "
        "after starting.",
    ),
    "rate-cost": (
        "Marginal cost, in dollars per unit, at a production level of {k} units when total "
        "cost is {f} dollars for q units?",
        "{k} units are being made; the cost of q units is {f} dollars. How much does the cost "
        "go up per extra unit at that level (the derivative)?",
        "my bakery's costs: {f} dollars for q cakes. what's the instantaneous rate of change "
        "of cost at {k} cakes?",
        "Given total cost {f} (dollars, q = quantity), evaluate the derivative of cost with "
        "respect to q at q = {k}.",
        "Dollars per unit: how quickly is the cost {f} growing with the quantity q when q is {k}?",
    ),
    "cost-break-even": (
        "${F} in overheads, ${u} per item to produce, items priced at ${p}: how many items "
        "until the business breaks even?",
        "How many tickets must a concert sell at {p} dollars apiece to cover a {F} dollar "
        "venue fee plus {u} dollars per attendee?",
        "break-even point? price {p} dollars, unit cost {u} dollars, fixed {F} dollars",
        "The income from q mugs is {p}q dollars; spending is {u}q + {F} dollars. Which q "
        "makes income and spending equal?",
        "Selling lemonade at {p} dollars a jug, with {u} dollars of ingredients per jug and a "
        "{F} dollar stand, what number of jugs makes me break even?",
    ),
    "cost-average": (
        "Cheapest cost per unit, in dollars, when making between 1 and {hi} units and the "
        "total bill for q units is {f}?",
        "Per-item cost is total cost over quantity. With total cost {f} dollars for q items "
        "and q from 1 to {hi}, how low can the per-item cost go?",
        "total cost {f} $ for q widgets (q up to {hi}, at least 1) — minimum of the average cost?",
        "Over 1 ≤ q ≤ {hi}, find the least value of the unit cost ({f})/q, in dollars.",
        "A print shop pays {f} dollars to print q posters. Allowing 1 to {hi} posters, what's "
        "the smallest cost per poster?",
    ),
    "cost-profit": (
        "Largest profit in dollars if selling q items earns {f} and production is capped at "
        "{hi} items?",
        "With capacity for {hi} units, how much can a firm earn at best when its profit is "
        "{f} dollars for q units?",
        "profit = {f} dollars (q units, 0 to {hi}). best profit?",
        "Over 0 ≤ q ≤ {hi}, determine the highest value reached by the profit {f}, in dollars.",
        "Our workshop's profit for q tables is {f} dollars and we can build {hi} tables at "
        "most — top profit?",
    ),
    "system-tickets": (
        "Two prices to find: grown-up and kid tickets. ${r1} bought {a1} grown-up plus {c1} "
        "kid tickets; ${r2} bought {a2} grown-up plus {c2} kid tickets.",
        "How much does each ticket type cost if {a1} adults with {c1} children pay {r1} "
        "dollars in total, while {a2} adults with {c2} children pay {r2} dollars?",
        "ticket revenue: day 1 = {r1} $ ({a1} adult, {c1} child), day 2 = {r2} $ ({a2} "
        "adult, {c2} child). adult price? child price?",
        "Determine the adult fare and the child fare, given that {a1} adult fares and {c1} "
        "child fares total {r1} dollars and {a2} adult fares and {c2} child fares total {r2} "
        "dollars.",
        "The ferry collected {r1} dollars from {a1} adults and {c1} kids in the morning and "
        "{r2} dollars from {a2} adults and {c2} kids in the afternoon. What does one adult "
        "ride cost, and one kid ride?",
    ),
    "system-numbers": (
        "Which two numbers total {s} and differ by {d}?",
        "{d} is the gap between two numbers and {s} is what they add to — name the numbers.",
        "two numbers: sum {s}, difference {d}. what are they",
        "Identify the pair of numbers with difference {d} and sum {s}.",
        "If you add two numbers you get {s}; subtract the smaller from the larger and you get "
        "{d}. Both numbers, please.",
    ),
}
